"""The words around the rules page's pictures, in each language of the rules page.

``tools/rules_pictures.py`` finds each picture's position and the facts its caption states
(tiles, numbers, seats); ``tools/docs_hooks.py`` writes the caption, the numbered table's
legend and text alternative, and the figure's own words in the language of the page it
fills: ``docs/rules.md`` in English, ``docs/rules.el.md`` in Greek, and so on. Each template
is one whole sentence with named placeholders, in the glossary's words (docs/glossary.md);
``tests/test_rules_pictures.py`` checks that every language has every template with the
English one's placeholders.

The words inside a picture (``seat 0 to play``, ``last: ...``) are drawn by
``chickenfoot.svg``, the library's renderer, and stay English.
"""

# ruff: noqa: RUF001  (Greek is written in Greek letters, which look like Latin ones)
from __future__ import annotations

LANGUAGES = ("en", "el", "hr", "ro", "lv")

CAPTIONS: dict[str, dict[str, str]] = {
    "en": {
        "centre-toes": "R6, the opening: the centre {centre} has {laid} of its {toes} toes, and "
        "until it has them all the only plays are toes on it. Glowing: where seat {seat} can "
        "lay a tile ({plays}).",
        "lines": "R7, open play: each toe of the centre has grown a line; a tile joins a line "
        "at its open end ({ends} here), and its other number becomes the new end. Glowing: "
        "seat {seat}'s plays ({plays}).",
        "foot": "R8, a double and its foot: {foot} was laid on an open end, which closed that "
        "line, and took its {toes} toes; they are open lines like any other.",
        "pending": "R8, a pending double: {hub} has {laid} of its {toes} toes. Until it has "
        "them, nothing is played anywhere else: seat {seat}'s only plays are toes on it "
        "(glowing: {plays}).",
        "forced-draw": "R9, a forced draw: no tile in seat {seat}'s hand shows an open number "
        "({numbers}), so its only move is to draw; the drawn tile is played if it fits, else "
        "the seat passes.",
        "round-end": "R10 and R11, the end of a round: seat {seat} laid its last tile, so the "
        "round is over, and every seat scores the pips left in its hand ({penalties}).",
        "seat-points": "seat {seat} {points}",
    },
    "el": {
        "centre-toes": "R6, το άνοιγμα: το κέντρο {centre} έχει {laid} από τα {toes} δάχτυλά "
        "του, και μέχρι να τα αποκτήσει όλα οι μόνες κινήσεις είναι δάχτυλα πάνω του. "
        "Φωτίζονται τα σημεία όπου η θέση {seat} μπορεί να ακουμπήσει πλακίδιο ({plays}).",
        "lines": "R7, ελεύθερο παιχνίδι: κάθε δάχτυλο του κέντρου έχει γίνει γραμμή· ένα "
        "πλακίδιο μπαίνει σε μια γραμμή στο ανοιχτό της άκρο (εδώ {ends}), και ο άλλος του "
        "αριθμός γίνεται το νέο άκρο. Φωτίζονται οι κινήσεις της θέσης {seat} ({plays}).",
        "foot": "R8, ένα διπλό και το πόδι του: το {foot} ακούμπησε σε ανοιχτό άκρο, έκλεισε "
        "εκείνη τη γραμμή και πήρε τα {toes} δάχτυλά του· αυτά είναι ανοιχτές γραμμές όπως "
        "όλες οι άλλες.",
        "pending": "R8, ένα διπλό σε αναμονή: το {hub} έχει {laid} από τα {toes} δάχτυλά του. "
        "Μέχρι να τα αποκτήσει, τίποτα δεν παίζεται αλλού: οι μόνες κινήσεις της θέσης {seat} "
        "είναι δάχτυλα πάνω του (φωτίζονται: {plays}).",
        "forced-draw": "R9, υποχρεωτικό τράβηγμα: κανένα πλακίδιο στο χέρι της θέσης {seat} "
        "δεν δείχνει ανοιχτό αριθμό ({numbers}), οπότε η μόνη της κίνηση είναι να τραβήξει· το "
        "πλακίδιο που τραβιέται παίζεται αν ταιριάζει, αλλιώς η θέση λέει πάσο.",
        "round-end": "R10 και R11, το τέλος ενός γύρου: η θέση {seat} ακούμπησε το τελευταίο "
        "της πλακίδιο, οπότε ο γύρος τελείωσε, και κάθε θέση παίρνει ως ποινή τις βούλες που "
        "της έμειναν στο χέρι ({penalties}).",
        "seat-points": "θέση {seat}: {points}",
    },
    "hr": {
        "centre-toes": "R6, otvaranje: središte {centre} ima {laid} od svojih {toes} prstiju, "
        "i dok ih ne dobije sve, jedini potezi su prsti na njemu. Svijetli ono kamo "
        "mjesto {seat} može položiti pločicu ({plays}).",
        "lines": "R7, slobodna igra: iz svakog prsta središta izrasla je linija; pločica se "
        "dodaje liniji na njezinom otvorenom kraju (ovdje {ends}), a njezin drugi broj postaje "
        "novi kraj. Svijetle potezi mjesta {seat} ({plays}).",
        "foot": "R8, dupla i njezina noga: {foot} je položena na otvoreni kraj, što je "
        "zatvorilo tu liniju, i dobila je svoja {toes} prsta; oni su otvorene linije kao i "
        "sve druge.",
        "pending": "R8, dupla na čekanju: {hub} ima {laid} od svojih {toes} prsta. Dok ih ne "
        "dobije, nigdje drugdje se ništa ne igra: jedini potezi mjesta {seat} su prsti na "
        "njoj (svijetle: {plays}).",
        "forced-draw": "R9, prisilno vučenje: nijedna pločica u ruci mjesta {seat} ne "
        "pokazuje otvoreni broj ({numbers}), pa mu je jedini potez vući; izvučena pločica se "
        "odigra ako odgovara, a inače mjesto kaže dalje.",
        "round-end": "R10 i R11, kraj runde: mjesto {seat} položilo je svoju posljednju "
        "pločicu, pa je runda gotova, i svako mjesto dobiva kaznene bodove za točkice koje su "
        "mu ostale u ruci ({penalties}).",
        "seat-points": "mjesto {seat}: {points}",
    },
    "ro": {
        "centre-toes": "R6, deschiderea: centrul {centre} are {laid} din cele {toes} degete "
        "ale sale, și până le are pe toate, singurele mutări sunt degete pe el. Luminat: "
        "unde poate așeza o piesă locul {seat} ({plays}).",
        "lines": "R7, jocul liber: din fiecare deget al centrului a crescut o linie; o piesă "
        "se adaugă unei linii la capătul ei liber (aici {ends}), iar celălalt număr al ei "
        "devine noul capăt. Luminate: mutările locului {seat} ({plays}).",
        "foot": "R8, o dublă și piciorul ei: {foot} a fost așezată la un capăt liber, ceea ce "
        "a închis acea linie, și și-a primit cele {toes} degete; ele sunt linii libere ca "
        "oricare altele.",
        "pending": "R8, o dublă în așteptare: {hub} are {laid} din cele {toes} degete ale "
        "sale. Până le are, nu se joacă nimic altundeva: singurele mutări ale locului {seat} "
        "sunt degete pe ea (luminate: {plays}).",
        "forced-draw": "R9, o tragere obligatorie: nicio piesă din mâna locului {seat} nu "
        "arată un număr liber ({numbers}), așa că singura lui mutare este să tragă; piesa "
        "trasă se joacă dacă se potrivește, altfel locul dă pas.",
        "round-end": "R10 și R11, sfârșitul unei runde: locul {seat} și-a așezat ultima piesă, "
        "deci runda s-a încheiat, și fiecare loc primește ca puncte de penalizare punctele "
        "rămase în mână ({penalties}).",
        "seat-points": "locul {seat}: {points}",
    },
    "lv": {
        "centre-toes": "R6, atklāšana: centram {centre} ir {laid} no saviem {toes} pirkstiem, un, "
        "kamēr tam nav visu, vienīgie gājieni ir pirksti pie tā. Izgaismots ir tas, kur "
        "vieta {seat} var pielikt kauliņu ({plays}).",
        "lines": "R7, brīvā spēle: no katra centra pirksta ir izaugusi līnija; kauliņu pieliek "
        "līnijas brīvajam galam (šeit {ends}), un tā otrs skaitlis kļūst par jauno galu. "
        "Izgaismoti vietas {seat} gājieni ({plays}).",
        "foot": "R8, dubultnieks un tā kāja: {foot} tika pielikts brīvajam galam, kas noslēdza "
        "šo līniju, un saņēma savus {toes} pirkstus; tās ir brīvas līnijas tāpat kā visas "
        "pārējās.",
        "pending": "R8, gaidošs dubultnieks: {hub} ir {laid} no saviem {toes} pirkstiem. Kamēr tam "
        "to nav, nekur citur neko nespēlē: vietas {seat} vienīgie gājieni ir pirksti pie tā "
        "(izgaismoti: {plays}).",
        "forced-draw": "R9, piespiedu vilkšana: neviens kauliņš vietas {seat} rokā nerāda "
        "brīvu skaitli ({numbers}), tāpēc tās vienīgais gājiens ir vilkt; pavilkto kauliņu "
        "izspēlē, ja tas der, citādi vieta izlaiž gājienu.",
        "round-end": "R10 un R11, kārtas beigas: vieta {seat} nolika savu pēdējo kauliņu, tāpēc "
        "kārta ir beigusies, un katra vieta saņem soda punktus par acīm, kas palikušas rokā "
        "({penalties}).",
        "seat-points": "vieta {seat}: {points}",
    },
}
"""Each rules picture's caption (by its stem), and how a seat's penalty is written in one."""

TABLE: dict[str, dict[str, str]] = {
    "en": {
        "centre": "The centre",
        "centre-what": "the round's double, {centre}: the first tile on the table.",
        "toe": "A toe",
        "toe-what": "a tile laid on a double ({toe} on the centre). The centre takes "
        "{opening_toes} toes before play goes anywhere else.",
        "line": "A line (an arm)",
        "line-what": "the tiles that grow out of a toe, each matching the number it touches "
        "({arm} after {toe}).",
        "end": "An open end",
        "end-what": "the free number at the end of a line ({number} on {end}): the next tile "
        "there must carry it.",
        "foot": "A double with its foot",
        "foot-what": "{foot}, laid on an open end, closed that line and took {foot_toes} toes "
        "of its own: the chicken's foot.",
        "foot-toes": "The foot's toes",
        "foot-toes-what": "{foot_toe_tiles}; until a double has all its toes, nothing is "
        "played anywhere else.",
        "boneyard": "The boneyard",
        "boneyard-what": "the tiles not dealt, face down ({boneyard} here): a player who "
        "cannot play draws one.",
        "alt": "A Chicken Foot table with its parts numbered: 1 the centre double, 2 a toe, "
        "3 a line, 4 an open end, 5 a double with its foot, 6 the foot's toes, 7 the "
        "boneyard.",
        "natural-size": "the picture at its natural size",
        "drawn": "Drawn by {renderer} from a real position when this site was built.",
    },
    "el": {
        "centre": "Το κέντρο",
        "centre-what": "το διπλό του γύρου, {centre}: το πρώτο πλακίδιο στο τραπέζι.",
        "toe": "Ένα δάχτυλο",
        "toe-what": "ένα πλακίδιο που ακουμπάει σε διπλό ({toe} στο κέντρο). Το κέντρο παίρνει "
        "{opening_toes} δάχτυλα πριν παιχτεί οτιδήποτε αλλού.",
        "line": "Μια γραμμή (ένα μπράτσο)",
        "line-what": "τα πλακίδια που μεγαλώνουν από ένα δάχτυλο, καθένα ταιριαστό με τον "
        "αριθμό που ακουμπάει ({arm} μετά το {toe}).",
        "end": "Ένα ανοιχτό άκρο",
        "end-what": "ο ελεύθερος αριθμός στο τέλος μιας γραμμής ({number} στο {end}): το "
        "επόμενο πλακίδιο εκεί πρέπει να τον έχει.",
        "foot": "Ένα διπλό με το πόδι του",
        "foot-what": "το {foot}, που ακούμπησε σε ανοιχτό άκρο, έκλεισε εκείνη τη γραμμή και "
        "πήρε {foot_toes} δικά του δάχτυλα: το πόδι της κότας.",
        "foot-toes": "Τα δάχτυλα του ποδιού",
        "foot-toes-what": "{foot_toe_tiles}· μέχρι ένα διπλό να αποκτήσει όλα τα δάχτυλά του, "
        "τίποτα δεν παίζεται αλλού.",
        "boneyard": "Η στοίβα",
        "boneyard-what": "τα πλακίδια που δεν μοιράστηκαν, ανάποδα (εδώ {boneyard}): όποιος "
        "δεν μπορεί να παίξει τραβάει ένα.",
        "alt": "Ένα τραπέζι Chicken Foot με αριθμημένα τα μέρη του: 1 το διπλό του κέντρου, "
        "2 ένα δάχτυλο, 3 μια γραμμή, 4 ένα ανοιχτό άκρο, 5 ένα διπλό με το πόδι του, 6 τα "
        "δάχτυλα του ποδιού, 7 η στοίβα.",
        "natural-size": "η εικόνα στο φυσικό της μέγεθος",
        "drawn": "Σχεδιάστηκε από το {renderer} από πραγματική θέση, όταν χτίστηκε ο ιστότοπος.",
    },
    "hr": {
        "centre": "Središte",
        "centre-what": "dupla runde, {centre}: prva pločica na stolu.",
        "toe": "Prst",
        "toe-what": "pločica položena na duplu ({toe} na središtu). Središte prima "
        "{opening_toes} prstiju prije nego što se igdje drugdje igra.",
        "line": "Linija (krak)",
        "line-what": "pločice koje rastu iz prsta, svaka s brojem koji dodiruje ({arm} nakon "
        "{toe}).",
        "end": "Otvoreni kraj",
        "end-what": "slobodan broj na kraju linije ({number} na {end}): sljedeća pločica ondje "
        "ga mora nositi.",
        "foot": "Dupla sa svojom nogom",
        "foot-what": "{foot}, položena na otvoreni kraj, zatvorila je tu liniju i dobila "
        "{foot_toes} vlastita prsta: kokošja noga.",
        "foot-toes": "Prsti noge",
        "foot-toes-what": "{foot_toe_tiles}; dok dupla nema sve svoje prste, nigdje drugdje se "
        "ništa ne igra.",
        "boneyard": "Hrpa",
        "boneyard-what": "nepodijeljene pločice, licem prema dolje (ovdje {boneyard}): igrač "
        "koji ne može igrati vuče jednu.",
        "alt": "Stol za Chicken Foot s numeriranim dijelovima: 1 dupla u središtu, 2 prst, "
        "3 linija, 4 otvoreni kraj, 5 dupla sa svojom nogom, 6 prsti noge, 7 hrpa.",
        "natural-size": "slika u prirodnoj veličini",
        "drawn": "Nacrtao {renderer} iz stvarne pozicije pri izgradnji ovih stranica.",
    },
    "ro": {
        "centre": "Centrul",
        "centre-what": "dubla rundei, {centre}: prima piesă de pe masă.",
        "toe": "Un deget",
        "toe-what": "o piesă așezată pe o dublă ({toe} pe centru). Centrul primește "
        "{opening_toes} degete înainte să se joace altundeva.",
        "line": "O linie (un braț)",
        "line-what": "piesele care cresc dintr-un deget, fiecare potrivită cu numărul pe care "
        "îl atinge ({arm} după {toe}).",
        "end": "Un capăt liber",
        "end-what": "numărul liber de la capătul unei linii ({number} pe {end}): următoarea "
        "piesă de acolo trebuie să-l poarte.",
        "foot": "O dublă cu piciorul ei",
        "foot-what": "{foot}, așezată la un capăt liber, a închis acea linie și și-a primit "
        "propriile {foot_toes} degete: piciorul de găină.",
        "foot-toes": "Degetele piciorului",
        "foot-toes-what": "{foot_toe_tiles}; până când o dublă nu are toate degetele, nu se "
        "joacă nimic altundeva.",
        "boneyard": "Grămada",
        "boneyard-what": "piesele neîmpărțite, cu fața în jos (aici {boneyard}): un jucător "
        "care nu poate juca trage una.",
        "alt": "O masă de Chicken Foot cu părțile numerotate: 1 dubla din centru, 2 un deget, "
        "3 o linie, 4 un capăt liber, 5 o dublă cu piciorul ei, 6 degetele piciorului, "
        "7 grămada.",
        "natural-size": "imaginea la mărimea ei naturală",
        "drawn": "Desenată de {renderer} dintr-o poziție reală la construirea acestui site.",
    },
    "lv": {
        "centre": "Centrs",
        "centre-what": "kārtas dubultnieks, {centre}: pirmais kauliņš uz galda.",
        "toe": "Pirksts",
        "toe-what": "kauliņš, kas pielikts pie dubultnieka ({toe} pie centra). Centrs pieņem "
        "{opening_toes} pirkstus, pirms spēle iet jebkur citur.",
        "line": "Līnija (zars)",
        "line-what": "kauliņi, kas aug no pirksta, katrs atbilst skaitlim, kuram tas pieskaras "
        "({arm} pēc {toe}).",
        "end": "Brīvais gals",
        "end-what": "brīvais skaitlis līnijas galā ({number} uz {end}): nākamajam kauliņam tur "
        "tas jānes.",
        "foot": "Dubultnieks ar savu kāju",
        "foot-what": "{foot}, pielikts brīvajam galam, noslēdza šo līniju un saņēma "
        "{foot_toes} savus pirkstus: vistas kāja.",
        "foot-toes": "Kājas pirksti",
        "foot-toes-what": "{foot_toe_tiles}; kamēr dubultniekam nav visu pirkstu, nekur citur "
        "neko nespēlē.",
        "boneyard": "Kaudze",
        "boneyard-what": "neizdalītie kauliņi, ar seju uz leju (šeit {boneyard}): spēlētājs, "
        "kurš nevar spēlēt, velk vienu.",
        "alt": "Chicken Foot galds ar numurētām daļām: 1 centra dubultnieks, 2 pirksts, "
        "3 līnija, 4 brīvais gals, 5 dubultnieks ar savu kāju, 6 kājas pirksti, 7 kaudze.",
        "natural-size": "attēls dabiskajā lielumā",
        "drawn": "Zīmējis {renderer} no īstas pozīcijas, būvējot šo vietni.",
    },
}
"""The numbered table's legend (each part's name, and ``-what``: what it is), its text
alternative, and the words every figure of the page carries."""
