// German labels, in an entry of their own (`execute-code-ui/locales/de`) so
// that pages in other languages do not load them.
import type { ExecuteCodeLabels } from "../ui/labels.js";

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
      ? `Zu sehen ist der Anfang von „${stream}“; die ${characters} Zeichen danach wurden nicht behalten.`
      : total !== null
        ? `Zu sehen sind die ersten ${first} und die letzten ${last} von ${total} Zeilen von „${stream}“.`
        : `Zu sehen sind Anfang und Ende von „${stream}“; ${characters} Zeichen dazwischen wurden nicht behalten.`,
  overwritten: "Spätere Ausgabe hat einen Teil davon überschrieben, wie im Terminal.",
  showOverwritten: "Überschriebenes zeigen",
  notKeptLines: (count) => `⋯ ${count} Zeilen nicht behalten ⋯`,
  notKeptCharacters: (count) => `⋯ ${count} Zeichen nicht behalten ⋯`,
  exitCode: (code) => `Exit-Code ${code}`,
  exitUnknown: "Exit-Code unbekannt",
  exited: (code) => `Exit-Code ${code}`,
  signal: (name) => `vom System beendet (${name})`,
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
  figures: "Abbildungen",
  files: "Dateien",
  download: (name, size) => `${name} herunterladen (${size})`,
  fileUnavailable: (name) =>
    `${name} konnte nicht geladen werden. Dateien werden nach dem Lauf nur kurz aufbewahrt; sie ist vielleicht abgelaufen.`,
  enlargeFigure: (alt) => `Abbildung vergrößern: ${alt}`,
  closeFigure: "Schließen",
  figurePending: "Die Abbildung erscheint, wenn das Programm endet.",
  filesUsed: "Gelesen:",
  filesGone: (names) =>
    `Vor dem Lauf verfallen: ${names}. Dateien bleiben eine Weile nach ihrer letzten Nutzung; hänge sie erneut an.`,
  continued: "Setzt die früheren Läufe dieses Chats fort",
  restarted: "Python wurde neu gestartet: Variablen früherer Läufe sind weg",
  tablePreview: (name) => `Erste Zeilen von ${name}`,
  tableRowsShown: (rows) => `Die ersten ${rows} Zeilen. Lade die Datei für alle herunter.`,
};
