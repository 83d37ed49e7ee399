// The highlighting worker: shiki and the Python grammar run here, off the
// page's main thread, so that neither loading them, nor compiling the
// grammar's regular expressions (tens of milliseconds on the first lines),
// nor tokenizing a long program can hold the page. See worker-host.ts.
import type { FromWorker, ToWorker } from "./protocol.js";
import { createPythonTokenizer } from "./python-tokenizer.js";
import { createWorkerHost } from "./worker-host.js";

const scope = self as unknown as Worker;
const receive = createWorkerHost((message: FromWorker) => scope.postMessage(message), createPythonTokenizer());
scope.onmessage = (event: MessageEvent<ToWorker>) => receive(event.data);
