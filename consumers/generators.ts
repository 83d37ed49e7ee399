import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./app-runner.ts";

/** The generators the matrix runs, pinned (the README's versions table names the same). */
export const GENERATORS = { vite: "create-vite@9.3.0", next: "create-next-app@16.4.3" } as const;

const templates = path.dirname(fileURLToPath(import.meta.url));

function workDir(): string {
  const work = process.env.ECU_CONSUMERS_DIR;
  if (!work) throw new Error("The kit was not packed (see pack.ts).");
  return work;
}

/**
 * `npm create vite -- --template react-ts` as a newcomer runs it, then a
 * plain `npm install` of the packed kit. Only `src/App.tsx` is replaced (it
 * keeps the template's `App.css`); `index.css`, `main.tsx` and the config
 * stay as generated.
 */
export async function generateViteApp(name: string, page: string): Promise<string> {
  const work = workDir();
  const dir = await createViteApp(work, name);
  cpSync(path.join(templates, page), path.join(dir, "src", "Cards.tsx"));
  writeFileSync(
    path.join(dir, "src", "App.tsx"),
    `import "./App.css";\nimport { Cards } from "./Cards.tsx";\n\nexport default function App() {\n  return <Cards />;\n}\n`,
  );
  await run("npm", ["install", "--no-audit", "--no-fund", path.join(work, "execute-code-ui.tgz")], dir);
  return dir;
}

/** What `npm create vite@latest -- --template react-ts` runs. */
async function createViteApp(work: string, name: string): Promise<string> {
  rmSync(path.join(work, name), { recursive: true, force: true });
  await run("npx", ["--yes", GENERATORS.vite, name, "--template", "react-ts", "--no-interactive"], work);
  return path.join(work, name);
}

/** `create-next-app --yes` with its defaults, in a config folder of its own so no saved preference changes them. */
async function createNextApp(work: string, name: string): Promise<string> {
  rmSync(path.join(work, name), { recursive: true, force: true });
  const config = mkdtempSync(path.join(work, "create-next-app-config-"));
  await run("npx", ["--yes", GENERATORS.next, name, "--yes", "--use-npm", "--skip-install", "--disable-git"], work, {
    XDG_CONFIG_HOME: config,
  });
  return path.join(work, name);
}

/**
 * `create-next-app --yes` with its defaults (a config folder of its own, so
 * no saved preference changes them), then a plain `npm install` of the
 * packed kit. Only `app/page.tsx` is replaced (it keeps the template's
 * layout classes). The layout's `next/font/google` fonts come from
 * `NEXT_FONT_GOOGLE_MOCKED_RESPONSES`, Next's own hook for offline builds,
 * with the real Geist files from the `geist` package served on loopback.
 */
export async function generateNextApp(
  name: string,
  page: string,
): Promise<{ dir: string; buildEnv: () => Promise<BuildEnv> }> {
  const work = workDir();
  const dir = await createNextApp(work, name);
  cpSync(path.join(templates, page), path.join(dir, "app", "cards.tsx"));
  // The template's page, its content replaced by the cards (its layout classes kept).
  writeFileSync(
    path.join(dir, "app", "page.tsx"),
    `import { Cards } from "./cards";\n\nexport default function Home() {\n  return (\n    <div className="flex flex-col flex-1 items-center justify-center bg-zinc-50 font-sans dark:bg-black">\n      <main className="flex flex-1 w-full max-w-3xl flex-col items-center justify-between py-32 px-16 bg-white dark:bg-black sm:items-start">\n        <Cards />\n      </main>\n    </div>\n  );\n}\n`,
  );
  await run("npm", ["install", "--no-audit", "--no-fund", path.join(work, "execute-code-ui.tgz")], dir);
  return { dir, buildEnv: () => serveGeistFonts(work) };
}

/**
 * The kit's companions a guide installs beside it, at the versions the
 * README's table names (the kit's own); a name with its version is taken as
 * it is (a package the kit itself does not use).
 */
function companions(names: string[]): string[] {
  const kit = JSON.parse(readFileSync(path.join(templates, "..", "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  return names.map((name) => (name.lastIndexOf("@") > 0 ? name : `${name}@${kit.devDependencies[name]}`));
}

/** Installs the packed kit and the packages a guide names into an app, as the guide's install line does. */
async function installAsGuided(dir: string, packages: string[]): Promise<void> {
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", path.join(workDir(), "execute-code-ui.tgz"), ...companions(packages)],
    dir,
  );
}

/** The guides' files: the two both guides share, and each framework's own (`consumers/guides`). */
const guides = path.join(templates, "guides");

/**
 * docs/nextjs.md followed in a fresh app: `create-next-app --yes` as in
 * `generateNextApp`, the guide's files copied over it, and the kit and the
 * packages the guide names installed as it says.
 */
export async function generateNextGuideApp(name: string, packages: string[]): Promise<string> {
  const dir = await createNextApp(workDir(), name);
  cpSync(path.join(guides, "next"), dir, { recursive: true });
  cpSync(path.join(guides, "tutor-server.ts"), path.join(dir, "tutor-server.ts"));
  cpSync(path.join(guides, "tutor.tsx"), path.join(dir, "app", "tutor.tsx"));
  await installAsGuided(dir, packages);
  return dir;
}

/**
 * docs/pilot.md followed on top of the Next.js guide's app: its sign-in
 * (`auth.ts` and NextAuth's route) and the page and API route that take the
 * student from it, with the packages it adds.
 */
export async function generateNextPilotApp(name: string, packages: string[]): Promise<string> {
  const dir = await generateNextGuideApp(name, packages);
  cpSync(path.join(guides, "pilot"), dir, { recursive: true });
  return dir;
}

/** docs/vite.md followed in a fresh `create-vite --template react-ts` app, as `generateNextGuideApp` does for Next. */
export async function generateViteGuideApp(name: string, packages: string[]): Promise<string> {
  const dir = await createViteApp(workDir(), name);
  cpSync(path.join(guides, "vite"), dir, { recursive: true });
  cpSync(path.join(guides, "tutor-server.ts"), path.join(dir, "tutor-server.ts"));
  cpSync(path.join(guides, "tutor.tsx"), path.join(dir, "src", "tutor.tsx"));
  await installAsGuided(dir, packages);
  return dir;
}

export interface BuildEnv {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The fonts' package, whose files stand in for Google's (and which the Next.js guide installs). */
export const GEIST = "geist@1.9.2";

/** The URLs next/font/google asks for Geist and Geist Mono, as the default layout loads them. */
const FONTS = [
  { family: "Geist", query: "Geist:wght@100..900", file: "geist-sans/Geist-Variable.woff2" },
  { family: "Geist Mono", query: "Geist+Mono:wght@100..900", file: "geist-mono/GeistMono-Variable.woff2" },
];

async function serveGeistFonts(work: string): Promise<BuildEnv> {
  const unpacked = path.join(work, "geist");
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked);
  // Packed, not installed: the package's peer (next) is not needed for its font files.
  await run("npm", ["pack", "--silent", GEIST], unpacked);
  const tarball = readdirSync(unpacked).find((file) => file.endsWith(".tgz"))!;
  await run("tar", ["xzf", tarball], unpacked);
  const fonts = path.join(unpacked, "package", "dist", "fonts");
  const server = createServer((req, res) => {
    const font = FONTS.find((candidate) => req.url === `/${candidate.file}`);
    if (!font) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "font/woff2" }).end(readFileSync(path.join(fonts, font.file)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const responses = Object.fromEntries(
    FONTS.map((font) => [
      `https://fonts.googleapis.com/css2?family=${font.query}&display=swap`,
      `/* latin */\n@font-face {\n  font-family: '${font.family}';\n  font-style: normal;\n  font-weight: 100 900;\n  font-display: swap;\n  src: url(${base}/${font.file}) format('woff2');\n  unicode-range: U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD;\n}\n`,
    ]),
  );
  // Turbopack reads the module back as JSON: a plain object keyed by the exact URLs.
  const mocked = path.join(unpacked, "google-fonts.json");
  writeFileSync(mocked, JSON.stringify(responses));
  return {
    env: { NEXT_FONT_GOOGLE_MOCKED_RESPONSES: mocked },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
