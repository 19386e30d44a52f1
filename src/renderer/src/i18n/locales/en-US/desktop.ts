export default {
  desktop: {
    update: {
      ready: 'DeepChat Desk {version} is ready to install.',
      restart: 'Restart to update',
      restartFailed: 'Could not restart: {message}'
    },
    deepLink: {
      addTitle: 'Add MCP servers from a link?',
      addWarning:
        'A link asks to add the servers below. A local server runs its command on this computer with your permissions. Add them only if you trust where the link came from.',
      command: 'Runs',
      url: 'Connects to',
      env: 'Environment',
      headers: 'Headers (values hidden)',
      autoApproveDropped:
        'The link also asked to run some tools without asking; links never grant that — you decide per tool.',
      skipped: 'Not usable from this link',
      cancel: 'Cancel',
      add: 'Add servers',
      added: 'Added: {names}',
      nothingAdded: 'Nothing was added.',
      close: 'Close',
      failed: 'Could not add: {message}',
      invalidTitle: 'This link cannot be used',
      ok: 'OK'
    },
    settings: {
      autoUpdate: 'Update automatically',
      autoUpdateHint:
        'Check for new versions at start and every few hours, download them in the background, and offer a restart.',
      updateOff: {
        development: 'Updates are off in a development build.',
        unsupported: 'This installation cannot update itself; install new versions from the releases page.'
      },
      shortcut: 'Shortcut to show the window',
      shortcutHint: 'Works from any app, for example CommandOrControl+Shift+D. Leave empty for none.',
      shortcutSave: 'Save',
      shortcutSaved: 'Shortcut saved.',
      shortcutCleared: 'Shortcut removed.',
      shortcutProblem: 'Not active: {problem}'
    }
  }
}
