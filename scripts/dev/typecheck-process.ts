// The type check of npm run dev: `tsc --noEmit --watch` through TypeScript's watch API, in a child
// process that ends with its parent (an IPC channel: tsc's own watch mode would outlive a killed
// npm run dev). Each error is a line `file(line,col): error TS…`, as `tsc --pretty false` writes it.
import ts from 'typescript';

process.once('disconnect', () => process.exit(0));

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getNewLine: () => '\n',
};

const host = ts.createWatchCompilerHost(
  'tsconfig.json',
  { noEmit: true },
  ts.sys,
  ts.createSemanticDiagnosticsBuilderProgram,
  (diagnostic) => process.stdout.write(ts.formatDiagnostic(diagnostic, formatHost)),
  (diagnostic) => process.stdout.write(`${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`),
);
ts.createWatchProgram(host);
