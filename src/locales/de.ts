// German labels, in an entry of their own (`execute-code-ui/locales/de`) so
// that pages in other languages do not load them.
import { code, explainWith, listed, say, type ExplanationWords } from "../contract/explain-failure.js";
import type { ExecuteCodeLabels } from "../ui/labels.js";

/** Why a run failed, in plain German words (contract/failure.ts has each kind's facts). */
const GERMAN_EXPLANATIONS: ExplanationWords = {
  name: ({ name, suggestion }) =>
    suggestion
      ? say`Python kennt den Namen ${code(name)} nicht. War ${code(suggestion)} gemeint?`
      : say`Python kennt den Namen ${code(name)} nicht: Er braucht vor dieser Zeile einen Wert (oder einen Import).`,
  unbound: ({ name }) =>
    say`${code(name)} bekommt in dieser Funktion einen Wert, also ist hier das ${code(name)} der Funktion gemeint, und das hat noch keinen.`,
  "zero-division": ({ text }) =>
    text ? say`Das Programm hat durch ${code(text)} geteilt, und das ist 0.` : say`Das Programm hat durch 0 geteilt.`,
  index: ({ name, text, count, index }) => {
    if (count === 0) return say`${code(name)} ist leer, hat also kein Element ${code(text)}.`;
    if (count === undefined || index === undefined) return say`${code(name)} hat kein Element ${code(text)}.`;
    return say`${code(name)} hat ${count} ${count === 1 ? "Element" : "Elemente"}, die Indizes gehen also von 0 bis ${count - 1} (oder -1 bis -${count}); ${code(text)} ist ${index}.`;
  },
  key: ({ text, name, names, count }) =>
    names?.length
      ? say`${name ? code(name) : "Das Dictionary"} hat keinen Schlüssel ${code(text)}. Seine Schlüssel: ${listed(names, count)}.`
      : say`Es gibt keinen Schlüssel ${code(text)}.`,
  "operand-types": ({ text, names }) =>
    names?.length === 2
      ? say`${code(text)} kann ${code(names[0])} und ${code(names[1])} nicht verbinden: Wandle zuerst einen der beiden um (mit ${code("str()")}, ${code("int()")} oder ${code("float()")}).`
      : null,
  attribute: ({ name, text, suggestion }) =>
    text === "NoneType"
      ? say`Der Wert ist hier ${code("None")} und hat kein ${code(`.${name}`)}: Oft wurde eine Funktion, die nichts zurückgibt (wie ${code("list.sort()")}), so benutzt, als gäbe sie einen Wert zurück.`
      : suggestion
        ? say`Ein ${code(text)} hat kein ${code(`.${name}`)}. War ${code(`.${suggestion}`)} gemeint?`
        : say`Ein ${code(text)} hat kein ${code(`.${name}`)}.`,
  "number-text": ({ name, text }) =>
    name === "float"
      ? say`${code("float()")} kann ${code(text)} nicht als Zahl lesen.`
      : say`${code("int()")} kann ${code(text)} nicht als ganze Zahl lesen.`,
  "file-not-found": ({ name, names, count }) =>
    names?.length
      ? say`Im Ordner des Programms gibt es keine Datei ${code(name)}. Dort liegen: ${listed(names, count)}.`
      : say`Es gibt keine Datei ${code(name)}: Der Ordner des Programms ist leer. Hänge die Datei zuerst an den Chat an.`,
  "module-not-found": ({ name, names }) =>
    names?.length
      ? say`Das Paket ${code(name)} ist hier nicht installiert. Installiert sind: ${listed(names)}.`
      : say`Das Paket ${code(name)} ist hier nicht installiert.`,
  recursion: ({ name, count }) =>
    say`${code(name)} hat sich ${count ?? "zu oft"}-mal selbst aufgerufen, ohne aufzuhören: Es braucht einen Fall, der zurückkehrt, ohne sich selbst aufzurufen.`,
  "no-internet": () =>
    say`Die Sandbox hat kein Internet: Ein Programm kann hier nichts herunterladen und keinen Webdienst aufrufen. Hänge die Daten stattdessen an den Chat an.`,
  "no-input": () =>
    say`Hier kann niemand etwas in das Programm eintippen, also bekommt ${code("input()")} nichts. Schreibe die Werte ins Programm.`,
  memory: () => say`Das Programm hat mehr Speicher gebraucht, als die Sandbox erlaubt.`,
  "sandbox-full": () =>
    say`Die Sandbox war voll, darum wurde dieses Programm angehalten, damit die Programme anderer laufen können: Du hattest sie zuletzt viel mehr genutzt als sie. Führe es gleich noch einmal aus.`,
};

/** Every string of the card in German. */
export const germanLabels: ExecuteCodeLabels = {
  numbers: { decimal: ",", group: "." },
  title: "Python",
  phase: {
    writing: "Code wird geschrieben…",
    "awaiting-approval": "Wartet auf Freigabe",
    running: "Läuft…",
    succeeded: "Fertig",
    failed: "Fehlgeschlagen",
    "timed-out": "Zeit überschritten",
    busy: "Sandbox ausgelastet",
    denied: "Nicht ausgeführt",
    cancelled: "Abgebrochen",
    skipped: "Übersprungen",
    error: "Ausführung nicht möglich",
    unrecognised: "Ergebnis nicht lesbar",
    "awaiting-client": "Wartet auf den Browser",
  },
  starting: "Python startet…",
  code: "Code",
  stdout: "Ausgabe",
  stderr: "Fehlerausgabe",
  noOutput: "Das Programm hat nichts ausgegeben.",
  copy: (what) => `${what} kopieren`,
  copied: "Kopiert",
  showMore: (lines, count) => (count === 1 ? "1 weitere Zeile zeigen" : `${lines} weitere Zeilen zeigen`),
  showLess: "Weniger zeigen",
  collapseCard: "Programm und Ausgabe ausblenden",
  expandCard: "Programm und Ausgabe zeigen",
  hiddenLines: (count) => `${count} Zeilen ausgeblendet`,
  hiddenCharacters: (count) => `${count} Zeichen ausgeblendet`,
  showAll: "Alles zeigen",
  truncated: ({ stream, characters, first, last, total }) =>
    last === null
      ? `Nur der Anfang von „${stream}“ wurde behalten; die ${characters} Zeichen danach nicht.`
      : total !== null
        ? `Von ${total} Zeilen in „${stream}“ wurden die ersten ${first} und die letzten ${last} behalten.`
        : `Nur Anfang und Ende von „${stream}“ wurden behalten; die ${characters} Zeichen dazwischen nicht.`,
  overwritten: "Spätere Ausgabe hat einen Teil davon überschrieben, wie im Terminal.",
  showOverwritten: "Überschriebenes zeigen",
  notKeptLines: (count) => `⋯ ${count} Zeilen nicht behalten ⋯`,
  notKeptCharacters: (count) => `⋯ ${count} Zeichen nicht behalten ⋯`,
  exitCode: (code) => `Exit-Code ${code}`,
  exitUnknown: "Exit-Code unbekannt",
  exited: (code) => `Exit-Code ${code}`,
  signal: (name) => `vom System beendet (${name})`,
  stoppedAtLimit: { memory: "Speicher voll", "sandbox-full": "Für andere angehalten" },
  wallTime: (duration) => duration,
  elapsed: (duration) => duration,
  elapsedOfLimit: (elapsed, limit) => `${elapsed} / ${limit}`,
  spokenElapsed: (elapsed, limit) => (limit ? `Läuft seit ${elapsed}, höchstens ${limit}` : `Läuft seit ${elapsed}`),
  spokenWallTime: (duration) => `Lief ${duration}`,
  stop: "Programm stoppen",
  stopShort: "Stoppen",
  raised: "Das Programm brach ab mit",
  timedOut: (limit, printed) =>
    `${limit ? `Nach ${limit} gestoppt` : "Gestoppt"}: Das Programm lief zu lange. ${printed ? "Was es bis dahin ausgab, steht darunter." : "Bis dahin gab es nichts aus."}`,
  busy: (seconds) =>
    seconds
      ? `Die Sandbox ist ausgelastet. Neuer Versuch in ${seconds} s.`
      : "Die Sandbox ist ausgelastet. Bitte gleich noch einmal versuchen.",
  busyNow: "Die Sandbox ist ausgelastet. Ein neuer Versuch ist jetzt möglich.",
  retry: "Erneut versuchen",
  denied: "Dieser Code wurde nicht ausgeführt.",
  deniedReason: (reason) => `Grund: ${reason}`,
  expired: "Die Freigabe ist abgelaufen, daher wurde dieser Code nicht ausgeführt.",
  cancelled: "Die Ausführung wurde abgebrochen, bevor sie fertig war.",
  cancelledNoResult: "Der Chat endete, bevor dieser Code ein Ergebnis lieferte.",
  skipped: "Dieser Code wurde nicht ausgeführt: Vorher wurde eine neue Nachricht gesendet.",
  error: "Der Code konnte nicht ausgeführt werden.",
  unrecognised:
    "Das Werkzeug antwortete in einer Form, die diese Karte nicht kennt; ob das Programm lief, ist unklar. Hier ist die Antwort unverändert:",
  approvalQuestion: "Dieses Python-Programm in der Sandbox ausführen?",
  awaitingApproval: "Nichts läuft, bevor Sie „Ausführen“ wählen. Prüfen Sie zuerst den Code.",
  awaitingClient: "Wartet darauf, dass der Browser den Code ausführt.",
  run: "Ausführen",
  deny: "Ablehnen",
  addReason: "Grund angeben",
  denyReason: "Warum nicht ausführen? (optional)",
  answerFailed: "Ihre Antwort konnte nicht gesendet werden. Bitte erneut versuchen.",
  goToLine: (line) => `Zu Zeile ${line} des Codes springen`,
  failure: {
    explain: explainWith(GERMAN_EXPLANATIONS),
    valuesAt: (line, fn) => (fn ? `In Zeile ${line}, in ${fn}():` : `In Zeile ${line}:`),
    size: (count, type) =>
      type === "str" ? `${count} Zeichen` : type === "bytes" ? `${count} Bytes` : `${count} Einträge`,
    libraryFrames: (count, formatted, module) => `${formatted} ${count === 1 ? "Schritt" : "Schritte"} in ${module}`,
  },
  figures: "Abbildungen",
  files: "Dateien",
  download: (name, size) => `${name} herunterladen (${size})`,
  fileUnavailable: (name) =>
    `${name} konnte nicht geladen werden. Die Dateien eines Laufs werden nur eine Weile aufbewahrt, über einen Neustart des Servers hinweg nicht: sie ist vielleicht nicht mehr da.`,
  enlargeFigure: (alt) => `Abbildung vergrößern: ${alt}`,
  closeFigure: "Schließen",
  panFigure: "Ziehen, um die ganze Abbildung zu sehen; mit zwei Fingern zoomen.",
  figurePending: "Die Abbildung erscheint, wenn das Programm endet.",
  filesUsed: "Gelesen:",
  filesGone: (names) =>
    `Vor dem Lauf verfallen: ${names}. Dateien bleiben eine Weile nach ihrer letzten Nutzung; hänge sie erneut an.`,
  continued: "Setzt die früheren Läufe dieses Chats fort",
  restarted: "Python wurde neu gestartet: Variablen früherer Läufe sind weg",
  tablePreview: (name) => `Erste Zeilen von ${name}`,
  tableRowsShown: (rows) => `Die ersten ${rows} Zeilen. Lade die Datei für alle herunter.`,
};
