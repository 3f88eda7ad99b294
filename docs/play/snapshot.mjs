// The Play page's second worker, started by socket.js once the game is under way on a
// visit that found no snapshot: Python with the library installed from the same wheels
// and imported, its memory kept in the browser's Cache Storage for the next visit
// (worker.mjs). It uses no micropip: a snapshot may hold no reference to a JavaScript
// object, which micropip keeps.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { CACHE, SITE_PACKAGES, glue, wheelsOf } from "./snapshot-common.mjs";

const here = new URL("./", self.location.href);

async function make() {
  if (!self.caches) return "no Cache Storage";
  const wheels = await wheelsOf(here);
  const cache = await caches.open(CACHE);
  if (await cache.match(wheels.key)) return "kept already";
  const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", here).href, _makeSnapshot: true });
  for (const name of ["attrs", "chickenfoot"]) {
    const data = await (await fetch(new URL("wheels/" + wheels[name], here))).arrayBuffer();
    pyodide.unpackArchive(data, "wheel", { extractDir: SITE_PACKAGES });
  }
  await glue(pyodide, here);
  const snapshot = pyodide.makeMemorySnapshot();
  for (const old of await cache.keys()) await cache.delete(old);  // one snapshot, this site's
  await cache.put(wheels.key, new Response(snapshot));
  return "kept " + snapshot.length + " bytes";
}

make().then(text => self.postMessage({ done: text }), err => self.postMessage({ done: "failed: " + String(err).slice(-200) }));
