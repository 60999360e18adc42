// A tiny stand-in for vscode.WorkspaceConfiguration's inspect(): user, workspace and folder values.
import type { ConfigurationLike } from '../../src/host/vscode/config/settingsReader';

export function fakeConfiguration(values: {
  user?: Record<string, unknown>;
  workspace?: Record<string, unknown>;
  folder?: Record<string, unknown>;
}): ConfigurationLike {
  return {
    inspect(key) {
      return { globalValue: values.user?.[key], workspaceValue: values.workspace?.[key], workspaceFolderValue: values.folder?.[key] };
    },
  };
}
