// The real-VS-Code test helpers in one import. Each file documents its API at the top:
//   session.ts    e2eTest, withVsCode, launchVsCode -> VsCodeSession (the usual entry points)
//   workbench.ts  runCommand, waitForNotification, openViewContainer, webviewFrame, getByRoleIn, screenshot
//   codeServer.ts startCodeServer, createWorkspace, installUnpackedExtension, e2eAvailability
//   inhost.ts     runInhostSuite, buildInhostTests, formatReport (mocha suites in the extension host)
//   processes.ts  killTree, descendants, alive, trackForExit
export * from './codeServer';
export * from './inhost';
export * from './processes';
export * from './session';
export * from './workbench';
export * from './chat';
