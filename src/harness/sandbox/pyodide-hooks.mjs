// Module-resolution hooks of a sandbox process. Once the interpreter has
// loaded, the process is locked: no module can be imported any more, so code
// that escapes from Python into JavaScript cannot reach node:net, node:fs,
// node:child_process or anything else.
let locked = false;

export function initialize({ port }) {
  port.on("message", (message) => {
    if (message === "lock") {
      locked = true;
      port.postMessage("locked");
    }
  });
  port.unref();
}

export async function resolve(specifier, context, nextResolve) {
  if (locked) {
    const error = new Error(`Importing modules is not allowed in the sandbox (${specifier}).`);
    error.code = "ERR_SANDBOX_LOCKED";
    throw error;
  }
  return nextResolve(specifier, context);
}
