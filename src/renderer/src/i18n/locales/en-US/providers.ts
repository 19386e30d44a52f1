export default {
  settingsProviders: {
    nav: 'Model providers',
    title: 'Model providers',
    subtitle:
      'Connect the services that run the models. Keys are kept in the system’s secret store and never shown again.',
    add: 'Add provider',
    addTitle: 'Add a model provider',
    empty: 'No provider yet. Add one to start chatting.',
    search: 'Search providers',
    listLabel: 'Configured providers',
    availableLabel: 'Available presets',
    availableHint: 'Switch one on to add it, or open it to enter its URL and key first.',
    setUp: 'Set up {name}',
    custom: 'Custom',
    preset: 'Preset',
    modelCount: 'no models on | 1 model on | {n} models on',
    enableNamed: 'Enable {name}',
    type: 'Provider',
    customOpenAi: 'Custom (OpenAI-compatible)',
    name: 'Name',
    nameRequired: 'Give the provider a name.',
    apiUrl: 'API URL',
    apiKey: 'API key',
    keyOptional: 'Optional for this provider',
    keyNotSet: 'Paste your API key',
    keyStored: 'A key is stored ({mask}). Leave the field empty to keep it.',
    keyNone: 'No key stored.',
    idleTimeout: 'Give up after silence of (seconds)',
    idleTimeoutHint:
      'A reply that sends nothing for this long ends with an error. Empty: {seconds} s. Raise it for a slow local model.',
    idleTimeoutInvalid: 'Enter whole seconds from 1 to 3600, or leave it empty.',
    clearKey: 'Delete key',
    keyCleared: 'The key was deleted.',
    saved: 'Saved',
    verify: 'Verify',
    verifying: 'Verifying…',
    verifyOk: 'Connected in {ms} ms.',
    verifyFailed: 'Verification failed: {message}',
    kinds: {
      openai: 'OpenAI API',
      anthropic: 'Anthropic API',
      gemini: 'Gemini API',
      openai_compatible: 'OpenAI-compatible API',
      ollama: 'Ollama',
      groq: 'Groq API',
      mistral: 'Mistral API',
      xai: 'xAI API',
      deepseek: 'DeepSeek API',
      azure: 'Azure OpenAI',
      vertex: 'Google Vertex AI',
      bedrock: 'Amazon Bedrock'
    },
    azure: {
      resource: 'Resource name',
      resourceHint: 'Fills the URL as https://<resource>.openai.azure.com/openai; or edit the URL.',
      deployment: 'Deployment name',
      deploymentHint: 'Requests name your deployments; add more on the provider page.',
      deploymentUrls: 'Use deployment URLs (/openai/deployments/…?api-version=) instead of /openai/v1',
      apiVersion: 'api-version'
    },
    vertex: {
      project: 'Project',
      projectPlaceholder: 'from the key file',
      location: 'Location',
      keyPlaceholder: 'Paste the service-account key file (JSON), or an express-mode API key',
      loadKeyFile: 'Load key file…',
      keyFileTooLarge: 'That file is too large to be a service-account key file.',
      keyHint:
        'Paste the service-account key file (JSON) in the key field, or an express-mode API key. Only the account’s e-mail is shown afterwards.'
    },
    bedrock: {
      region: 'Region',
      accessKeyId: 'Access key ID',
      sessionToken: 'Session token (temporary credentials only)',
      sessionTokenStored: 'A session token is stored. Leave empty to keep it.',
      keyHint: 'Put the secret access key in the key field. Requests are signed with AWS Signature V4.'
    },
    remove: 'Remove',
    removeTitle: 'Remove provider',
    removeConfirm: 'Remove “{name}” and its stored key? This cannot be undone.',
    models: 'Models',
    modelsHint: 'Switch models on to offer them in chats.',
    addedModels:
      'Added. The provider listed no models; add them by id below. | Added. The provider listed 1 model; {enabled} switched on. | Added. The provider listed {listed} models; {enabled} switched on.',
    addedModelsFailed:
      'Added, but its models could not be listed: {message}. Check the key, then fetch them below or add them by id.',
    addedModelsUnreachable:
      'Added, but the provider could not be reached: {message} Fetch the models below once it answers, or add them by id.',
    addedModelsFailedOther:
      'Added, but its models could not be listed: {message}. Fetch them below, or add them by id.',
    fetchModels: 'Fetch models',
    fetching: 'Fetching…',
    modelsFetched:
      'The provider reported no models. | The provider reported 1 model. | The provider reported {n} models.',
    noModels: 'No models yet. Fetch them from the provider.',
    enableModel: 'Enable {name}',
    contextShort: '{n} tokens context',
    capabilities: { vision: 'Vision', toolCalling: 'Tools', reasoning: 'Reasoning' },
    default: 'Default',
    makeDefault: 'Make default',
    addModelLabel: 'Add a model by its id',
    addModel: 'Add model',
    modelExists: 'The model {id} is already in the list.',
    modelSettings: 'Settings',
    contextLength: 'Context length (tokens)',
    maxOutput: 'Max output (tokens)'
  }
}
