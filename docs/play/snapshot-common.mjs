// What the Play page's two workers share (worker.mjs plays; snapshot.mjs makes the
// memory snapshot a later visit starts from).
export const CACHE = "chickenfoot-play";
export const SITE_PACKAGES = "/lib/python3.12/site-packages";

// wheels.json: the wheels' file names, and `key`, a hash of everything a snapshot holds
// (Pyodide's version, the wheels, the worker's Python): a snapshot is used only by the
// site that made it.
export async function wheelsOf(here) {
  return (await fetch(new URL("wheels/wheels.json", here))).json();
}

// The worker's own Python (tableplay.py and the module it takes the server's messages
// from), imported: the game's class is then ready.
export async function glue(pyodide, here) {
  for (const name of ["tableplay.py", "tableplay_messages.py"]) {
    const text = await (await fetch(new URL(name, here))).text();
    pyodide.FS.writeFile("/home/pyodide/" + name, text);
  }
  pyodide.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')\nimport tableplay");
}
