export default {
  mcpRegistry: {
    open: 'Browse registry',
    title: 'MCP Registry',
    official: 'Official MCP Registry',
    custom: 'Registry: {url}',
    change: 'Change registry',
    urlLabel: 'Registry address (https)',
    urlHint:
      'The official registry, or your company’s own registry speaking the same API. Leave blank for the official one.',
    save: 'Save',
    cancel: 'Cancel',
    search: 'Search servers',
    loading: 'Loading…',
    empty: 'No servers found.',
    more: 'Load more',
    cached: 'Cached {time}: the registry could not be reached.',
    refused: '1 entry refused by the app’s checks | {n} entries refused by the app’s checks',
    publisher: 'Publisher',
    version: 'Version',
    source: 'Source',
    website: 'Website',
    published: 'Published {date}',
    status: {
      active: 'Official: active',
      deprecated: 'Official: deprecated',
      deleted: 'Official: deleted'
    },
    installed: 'Installed',
    installedAs: 'Installed as {id}',
    back: 'Back to the list',
    packages: 'Packages',
    remotes: 'Remote servers',
    runs: 'Runs',
    connects: 'Connects to',
    from: 'from {url}',
    install: 'Install',
    installThis: 'Install {what}',
    nothing: 'Nothing to install: no package or remote of this server passed the app’s checks.',
    leftOut: 'Left out by the app’s checks',
    runtimeMissing: {
      npx: 'Node.js (npx) is not installed: install Node.js to run npm packages.',
      uvx: 'uv (uvx) is not installed: install uv to run PyPI packages.',
      docker: 'Docker is not installed: install Docker to run container images.'
    },
    openFailed: 'The link could not be opened',
    form: {
      title: 'Install {name}',
      none: 'This server asks for no values.',
      required: 'required',
      secret: 'Stored in the secret store, never shown again.',
      show: 'Show',
      hide: 'Hide',
      choose: 'Choose…',
      kinds: { env: 'Environment variable', header: 'Header', arg: 'Argument' },
      submit: 'Install',
      done: 'Installed as {name}; it starts now.'
    }
  }
}
