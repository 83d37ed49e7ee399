/** The oldest Node the server entry runs on: `node:sqlite` needs no flag from 22.13 on. */
export const MINIMUM_NODE_VERSION = "22.13.0";

/**
 * Refuses an older Node at once, with the version it needs, rather than
 * let the first request that opens the chat store fail with a 500.
 */
export function checkNodeVersion(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return;
  throw new Error(
    `execute-code-ui needs Node ${MINIMUM_NODE_VERSION} or newer (Node 24 LTS is what it is tested on); this is Node ${version}. Run it on a newer Node; npm can fetch one for the command: npx -y node@24 node_modules/.bin/<command> …`,
  );
}
