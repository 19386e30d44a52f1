// Knowledge bases (#31): Settings › Knowledge, a chat's bases, citations and the source viewer.
export default {
  knowledge: {
    location: {
      page: 'page {page}',
      line: 'line {line}',
      lines: 'lines {start}–{end}',
      sheet: '{sheet}, rows {start}–{end}'
    },
    viewer: {
      copyPath: 'Copy path',
      copied: 'Copied',
      previousPage: 'Previous page',
      nextPage: 'Next page',
      pageOf: 'Page {page} of {count}',
      changed: 'The file changed after it was indexed: the text may differ from what was cited.',
      textLabel: 'Text of the cited file'
    },
    sources: { title: 'Knowledge sources' },
    chips: {
      label: 'Knowledge bases this chat searches',
      title: 'This chat searches {name}',
      detach: 'Stop searching {name} in this chat'
    },
    tools: {
      title: 'Knowledge bases',
      perChat: 'Knowledge bases are attached to a chat: send the first message, then pick them here.',
      none: 'No knowledge bases yet: create one in Settings › Knowledge.',
      counts: '{files} files · {chunks} chunks'
    }
  }
}
