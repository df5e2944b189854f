// The type check of npm run dev: `tsc --noEmit --watch` through TypeScript's watch API, in a child
// process that ends with its parent (an IPC channel: tsc's own watch mode would outlive a killed
// npm run dev). Each error is a line `file(line,col): error TS…`, as `tsc --pretty false` writes it.
// Unlike tsc --watch, a save is checked at once rather than 250 ms later, and each file's errors
// are printed as soon as that file is checked, the saved files first: the error in a handler just
// saved shows while the server restarts, not once every file that imports it has been checked.
// Between two files it lets a save in, so that one made during a long check (the first, at start)
// is checked next.
import ts from 'typescript';

process.once('disconnect', () => process.exit(0));

/** How long after a save's first file event the check starts: an editor's write is a few events close together. */
const SETTLE_MS = 20;

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getNewLine: () => '\n',
};

const print = (diagnostic: ts.Diagnostic) => process.stdout.write(ts.formatDiagnostic(diagnostic, formatHost));
const say = (diagnostic: ts.Diagnostic) => process.stdout.write(`${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`);

const host = ts.createWatchCompilerHost('tsconfig.json', { noEmit: true }, ts.sys, ts.createSemanticDiagnosticsBuilderProgram, print, say);

const schedule = host.setTimeout!.bind(host);
host.setTimeout = (callback, ms, ...args: unknown[]): unknown =>
  schedule(callback, args[0] === 'timerToUpdateProgram' ? SETTLE_MS : ms, ...args);

/** The program being checked; a newer one ends the check of the one before (it takes over what was left). */
let current: ts.SemanticDiagnosticsBuilderProgram | undefined;
let previousFiles: ReadonlySet<ts.SourceFile> = new Set();

const summary = (errors: number) => process.stdout.write(`Found ${errors} error${errors === 1 ? '' : 's'}. Watching for file changes.\n`);

host.afterProgramCreate = (builder) => {
  current = builder;
  const files = builder.getSourceFiles();
  // An unchanged file keeps its SourceFile from one program to the next: a new one was saved. The
  // first program's files are all new: they are checked in the loop below, which lets saves in.
  const saved = previousFiles.size === 0 ? [] : files.filter((file) => !previousFiles.has(file) && !file.isDeclarationFile);
  previousFiles = new Set(files);
  const early = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
  ];
  for (const diagnostic of early) print(diagnostic);
  // As tsc: a program with syntax errors is not checked further.
  if (early.length > 0) return summary(early.length);
  const printed = new Set<ts.SourceFile>();
  const printFile = (file: ts.SourceFile, diagnostics: readonly ts.Diagnostic[]) => {
    if (printed.has(file)) return;
    printed.add(file);
    for (const diagnostic of diagnostics) print(diagnostic);
  };
  for (const file of saved) printFile(file, builder.getSemanticDiagnostics(file));
  const next = () => {
    if (current !== builder) return;
    const affected = builder.getSemanticDiagnosticsOfNextAffectedFile();
    if (affected) {
      // The whole program when the change reaches every file (a global type, the options).
      if ('fileName' in affected.affected) printFile(affected.affected, affected.result);
      else {
        for (const diagnostic of affected.result) print(diagnostic);
        for (const file of files) printed.add(file);
      }
      setImmediate(next);
      return;
    }
    // As tsc --watch, each check lists every error, those of the files the save did not affect too.
    const all = builder.getSemanticDiagnostics();
    for (const diagnostic of all) if (!diagnostic.file || !printed.has(diagnostic.file)) print(diagnostic);
    summary(all.length);
  };
  next();
};

ts.createWatchProgram(host);
