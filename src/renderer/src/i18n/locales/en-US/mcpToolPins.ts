export default {
  mcpToolPins: {
    title: 'Changed since you allowed this server',
    summary: '1 tool is off until you review it | {n} tools are off until you review them',
    kinds: { changed: 'changed', new: 'new' },
    hints: {
      changed: 'The model would see this new definition instead of the one you allowed.',
      new: 'The server did not offer this tool when you allowed it.'
    },
    fields: {
      title: 'Title',
      description: 'Description',
      inputSchema: 'Input schema',
      outputSchema: 'Output schema',
      annotations: 'Annotations'
    },
    accept: 'Accept',
    acceptNamed: 'Accept the new definition of {name}',
    keepOff: 'Keep off',
    keepOffNamed: 'Keep {name} off',
    keptOff: 'Kept off: 1 tool | Kept off: {n} tools',
    heldHint: 'Off for the model until you review the change on the server card.'
  }
}
