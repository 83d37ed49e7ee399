import { spawnSync } from "node:child_process";

/** How interpreter processes are walled off from the host, as found on this machine. */
export interface Isolation {
  /** Put before the interpreter's command line (empty where nothing is available). */
  wrapper: string[];
  /** Interpreters see no network: their own network namespace with a downed loopback. */
  network: boolean;
  /** Interpreters cannot see or signal the host's processes: their own PID namespace. */
  processes: boolean;
  /** An interpreter is killed by the kernel when its parent dies, even mid-run (PR_SET_PDEATHSIG). */
  diesWithParent: boolean;
  /** Sentences for the start-up message and the health endpoint; empty when fully isolated. */
  warnings: string[];
}

// Own user (where allowed), network, PID and IPC namespaces; unshare forks the
// interpreter as PID 1 of the new namespace and kills it when unshare dies.
const NAMESPACE_FLAGS = [
  ["--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child", "--ipc"],
  // Root where user namespaces are turned off.
  ["--net", "--pid", "--fork", "--kill-child", "--ipc"],
];

const NICE = ["nice", "-n", "10"];

const works = (command: string[]) => {
  const result = spawnSync(command[0]!, command.slice(1), { stdio: "ignore", timeout: 5000 });
  return result.status === 0;
};

/** Finds out once what this machine allows; takes a few milliseconds. */
export function probeIsolation(): Isolation {
  if (process.platform !== "linux") {
    return {
      wrapper: [],
      network: false,
      processes: false,
      diesWithParent: false,
      warnings: [
        `Network isolation is not available on ${process.platform}: Python programs run without a network namespace, so code that escapes into JavaScript could reach the network.`,
        "Interpreters end with their parent only when idle (they watch stdin); a program still running when the parent is killed runs on.",
      ],
    };
  }
  const warnings: string[] = [];
  const deathSignal = ["setpriv", "--pdeathsig", "KILL", "--"];
  const diesWithParent = works([...deathSignal, "true"]);
  if (!diesWithParent) {
    warnings.push(
      "setpriv --pdeathsig is not available: interpreters end with their parent only when idle; a program still running when the parent is killed runs on.",
    );
  }
  const namespaces = NAMESPACE_FLAGS.find((flags) => works(["unshare", ...flags, "--", "true"]));
  if (!namespaces) {
    warnings.push(
      "unshare is missing or cannot create a network namespace here (it needs user namespaces, or root): Python programs run with the host's network, so code that escapes into JavaScript could reach it.",
    );
  }
  // Programs and starting interpreters yield the CPU to the server that answers the chat.
  const lowerPriority = works([...NICE, "true"]) ? NICE : [];
  return {
    wrapper: [
      ...(diesWithParent ? deathSignal : []),
      ...lowerPriority,
      ...(namespaces ? ["unshare", ...namespaces, "--"] : []),
    ],
    network: Boolean(namespaces),
    processes: Boolean(namespaces),
    diesWithParent,
    warnings,
  };
}
