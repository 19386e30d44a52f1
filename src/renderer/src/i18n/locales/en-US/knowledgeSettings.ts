// Settings › Knowledge (#31): loaded with the settings pages.
export default {
  settingsKnowledge: {
    nav: 'Knowledge',
    title: 'Knowledge',
    subtitle:
      'Files and folders the model can search in chats you attach them to. They are read on this computer, split into chunks and embedded with a model of one of your providers.',
    new: 'New knowledge base',
    createTitle: 'New knowledge base',
    name: 'Name',
    create: 'Create and index',
    cancel: 'Cancel',
    pathLabel: 'Files and folders',
    pathPlaceholder: '/home/me/notes or /home/me/report.pdf',
    pathHint:
      'PDF, Word, Excel, Markdown, HTML, text and code. A folder is read with its subfolders (not .git, node_modules or ignored files) and re-indexed when its files change.',
    addPath: 'Add',
    addFolder: 'Add folder…',
    addFiles: 'Add files…',
    pathRefused: '{path} cannot be added: {reason}',
    sourceKind: { file: 'File', folder: 'Folder' },
    removePicked: 'Remove {path}',
    noEmbeddingProviders:
      'None of your providers can embed yet. Add an OpenAI, Gemini, Mistral, Ollama or OpenAI-compatible provider in Settings › Providers.',
    embeddingProvider: 'Embedding provider',
    embeddingModel: 'Embedding model',
    embeddingFixed:
      'A base keeps its embedding model. Changing it later means embedding every chunk again, and only happens when you choose to.',
    empty: 'No knowledge bases yet. Create one from a folder of documents.',
    status: {
      idle: 'Ready',
      queued: 'Waiting',
      indexing: 'Indexing',
      cancelled: 'Stopped',
      error: 'Failed'
    },
    files: 'Files',
    chunks: 'Chunks',
    size: 'Size',
    lastIndexed: 'Last indexed',
    neverIndexed: 'Not yet',
    modelLine: 'Embedding: {provider} / {model}',
    dimensions: '{n} dimensions',
    progressLabel: 'Indexing {name}',
    fileErrors: '1 file skipped or failed | {n} files skipped or failed',
    sources: '1 source | {n} sources',
    sourceMissing: 'missing',
    removeSource: 'Remove {path} from this base',
    addSources: 'Add files or folders',
    cancelRun: 'Stop indexing',
    reindex: 'Re-index',
    reembed: 'Change embedding model…',
    remove: 'Remove',
    removeTitle: 'Remove “{name}”?',
    removeBody: 'Its index is deleted and chats stop searching it. Your files stay where they are.',
    reembedTitle: 'Change the embedding model of “{name}”',
    reembedWarning:
      'Every chunk ({chunks}) is embedded again with the new model, replacing {model}. Until that finishes, searches of this base find less. Vectors of two models are never mixed.',
    reembedConfirm: 'Re-embed with this model',
    reembedSame: 'That is the model the base already uses.',
    progress: {
      scanning: 'Finding files…',
      reading: 'Reading',
      embedding: 'Embedding',
      done: 'Done',
      cancelled: 'Stopped',
      failed: 'Failed',
      files: '{done} of {total} files',
      chunks: '{done} of {total} chunks'
    },
    tryTitle: 'Try a search',
    tryBase: 'Knowledge base',
    tryAllBases: 'All bases',
    tryQuery: 'Search for',
    trySearch: 'Search',
    tryFound: 'Nothing found ({ms} ms). | 1 result ({ms} ms). | {n} results ({ms} ms).',
    tryFullTextOnly:
      'The embedding model could not be reached, so these results come from full-text search only ({reason}).'
  }
}
