export default {
  compare: {
    action: 'Compare',
    pickTitle: 'Compare models',
    pickHint: 'Pick {min} to {max} models. Each runs the prompt on its own copy of the chat and its folder.',
    typeFirst: 'Type the prompt in the composer first.',
    send: 'Send to {n} models',
    title: 'Comparison',
    models: '{n} models',
    discardAll: 'Discard all',
    stop: 'Stop',
    keep: 'Keep this one',
    waiting: 'Waiting for the model…',
    toolCalls: 'Tool calls',
    asks: '{model} asks',
    allowOnce: 'Allow once',
    deny: 'Deny',
    openRun: 'Answer in the run’s chat',
    copyNote: 'Scratch copy.',
    files: '{n} changed files',
    noFiles: 'No file changes.',
    diffCut: 'The diff is cut here; keeping the run applies all of it.',
    tokens: 'Tokens {input} in / {output} out',
    cost: 'Cost {cost}',
    time: 'Time {seconds} s',
    fileStatus: { added: 'added', modified: 'modified', deleted: 'deleted' },
    status: {
      preparing: 'Preparing',
      running: 'Running',
      waiting: 'Waiting for you',
      completed: 'Done',
      error: 'Failed',
      cancelled: 'Stopped'
    }
  }
}
