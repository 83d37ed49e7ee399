// The browser's budgets, checked on the built package (`npm run size`). A
// host's bundler ships what a page loads with the kit: its entry and what
// that imports statically, with the kit's dependencies, without React and
// assistant-ui (the host has those). What a card loads only when it needs
// it (`import()`: the figure dialog, a table's preview, the approval
// reason, the main-thread highlighter) is not part of the first load, and a
// static import of any of them counts at once.
const loadedLater = {
  name: "loaded-later",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined,
    );
  },
};

const hostHas = ["react", "react-dom", "@assistant-ui/react"];
// The built package; the bench measures a build of its own here.
const dist = process.env.SIZE_LIMIT_DIST ?? "dist";

// As a host's bundler builds a page: ES modules, so the worker's `import.meta.url` stays.
const asAHostBuilds = (config) => ({
  ...config,
  format: "esm",
  logLevel: "error",
  plugins: [...(config.plugins ?? []), loadedLater],
});

export default [
  {
    name: "browser entry and what it imports statically",
    path: `${dist}/index.js`,
    ignore: hostHas,
    gzip: true,
    // 20,000 bytes (size-limit counts a kB as 1,000 bytes). The coloured half of ANSI output loads with its parser.
    limit: "20 KB",
    modifyEsbuildConfig: asAHostBuilds,
  },
  {
    name: "highlighting worker (shiki, the Python grammar, both themes)",
    path: `${dist}/ui/highlight/highlight-worker.js`,
    gzip: true,
    limit: "75 KB",
    modifyEsbuildConfig: asAHostBuilds,
  },
];
