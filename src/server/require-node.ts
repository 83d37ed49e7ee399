// The server entry's first import: a Node too old is told before any other module loads.
import { checkNodeVersion } from "./node-version.js";

checkNodeVersion();
