import { optionTable as opts, withEffect, type Arg } from './optionParser'
import { useOfFind, useOfJq, useOfTar, useOfUnzip, useOfXxd } from './programParsers'
import { emptyUse, useFromTable, type ProgramUse, type ReadOnlyProgram } from './programUse'
import { classifySed } from './sedScript'
import { reasonOf } from './reasonText'

const none = opts({})

/** sha256sum and friends: `-c` reads the paths listed in a checksum file. */
const checksum = (why: string): ReadOnlyProgram => ({
  why,
  operands: 'paths',
  options: opts({ list: '-c --check', text: '-l= --length= -a= --algorithm=' })
})

const grep: ReadOnlyProgram = {
  why: 'searches file contents and prints matching lines',
  operands: 'pattern-then-paths',
  options: opts({
    pattern: '-e= --regexp= -f= --file=',
    reads: '-f= --file= --exclude-from=',
    text: '-m= --max-count= -A= --after-context= -B= --before-context= -C= --context= --label= --binary-files= -d= --directories= -D= --devices= --exclude= --exclude-dir= --include= --group-separator= --color=? --colour=?',
    recursive: '-r --recursive -R --dereference-recursive',
    follows: '-R --dereference-recursive'
  })
}

/** A word (name, number, format) program: nothing it is given is opened. */
const words = (why: string, text = ''): ReadOnlyProgram => ({
  why,
  operands: 'none',
  options: opts({ text })
})

/** A program that reads the files it is named and has no option that changes that. */
const reader = (why: string, text = ''): ReadOnlyProgram => ({
  why,
  operands: 'paths',
  options: opts({ text })
})

/** A pager: shows files; `+cmd` runs a pager command at start, `-o` keeps a log file. */
const PAGER_SAFE_COMMAND = /^\+(\d+|[Gg]|[/?][^!|]*)$/
const pager = (why: string, groups: Parameters<typeof opts>[0]): ReadOnlyProgram => ({
  why,
  operands: 'paths',
  options: opts(groups),
  special: (parsed, use) => {
    for (const arg of parsed.operands) {
      if (!arg.text.startsWith('+')) continue
      use.reads = use.reads.filter((r) => r.arg !== arg)
      if (!PAGER_SAFE_COMMAND.test(arg.text)) use.hazards.push({ hazard: 'runs', option: arg.text })
    }
  }
})

/**
 * Every program that may run unasked, why it only reads, and the options and operands that
 * make it run programs, write files, follow links, read more paths or show the environment.
 * A program not here is never read-only. `READ_ONLY_PROGRAMS` is this table's keys.
 */
export const READ_ONLY_TABLE: Record<string, ReadOnlyProgram> = {
  ls: {
    why: 'lists folder entries',
    operands: 'paths',
    options: opts({
      text: '-I= -T= -w= --ignore= --hide= --tabsize= --width= --format= --sort= --time= --time-style= --block-size= --quoting-style= --indicator-style= --color=? --hyperlink=? --classify=?',
      recursive: '-R --recursive',
      follows: '-L --dereference'
    })
  },
  cat: reader('prints files'),
  head: reader('prints the start of files', '-n= -c= --lines= --bytes='),
  tail: {
    why: 'prints the end of files',
    operands: 'paths',
    options: opts({
      text: '-n= -c= -s= --lines= --bytes= --pid= --sleep-interval= --max-unchanged-stats=',
      endless: '-f -F --follow=?'
    }),
    special: (parsed, use) => {
      if (withEffect(parsed, 'endless').length)
        use.verdicts.push({ category: 'unknown', reason: reasonOf('tail_follow') })
    }
  },
  wc: { why: 'counts lines, words and bytes', operands: 'paths', options: opts({ list: '--files0-from=' }) },
  echo: words('prints its arguments'),
  printf: {
    why: 'prints its arguments by a format',
    operands: 'none',
    options: opts({ text: '-v=' }),
    special: (parsed, use) => {
      for (const option of parsed.options)
        if (option.name === '-v' && option.value) use.setVariables.push(option.value.text)
    }
  },
  pwd: words('prints the working folder'),
  which: words('finds programs on PATH'),
  whereis: words('finds programs and manuals'),
  type: words('describes a command name'),
  file: {
    why: 'guesses file types',
    operands: 'paths',
    options: opts({
      reads: '-m= --magic-file=',
      list: '-f= --files-from=',
      text: '-F= --separator= -P= --parameter= -e= --exclude= --exclude-quiet=',
      writes: '-C --compile',
      runs: '-z -Z --uncompress --uncompress-noreport'
    })
  },
  stat: reader('shows file metadata', '-c= --format= --printf='),
  du: {
    why: 'sums disk usage',
    operands: 'paths',
    recursive: true,
    options: opts({
      text: '-B= --block-size= -d= --max-depth= -t= --threshold= --time-style= --exclude= --time=?',
      reads: '-X= --exclude-from=',
      list: '--files0-from=',
      follows: '-L --dereference'
    })
  },
  df: words(
    'shows free space of file systems (never opens a file)',
    '-B= --block-size= -t= --type= -x= --exclude-type= --output=?'
  ),
  grep,
  egrep: grep,
  fgrep: grep,
  rg: {
    why: 'searches file contents',
    operands: 'pattern-then-paths',
    recursive: true,
    options: opts({
      pattern: '-e= --regexp= -f= --file= --files --type-list',
      reads: '-f= --file= --ignore-file=',
      text: '-A= --after-context= -B= --before-context= -C= --context= -m= --max-count= -M= --max-columns= -j= --threads= -t= --type= -T= --type-not= --type-add= --type-clear= -g= --glob= --iglob= -E= --encoding= --engine= -r= --replace= -d= --max-depth= --maxdepth= --max-filesize= --sort= --sortr= --color= --colors= --path-separator= --context-separator= --field-context-separator= --field-match-separator= --dfa-size-limit= --regex-size-limit= --hyperlink-format= --generate=',
      runs: '--pre= --pre-glob= -z --search-zip --hostname-bin=',
      follows: '-L --follow'
    })
  },
  ag: {
    why: 'searches file contents',
    operands: 'pattern-then-paths',
    recursive: true,
    options: opts({
      pattern: '-g=',
      reads: '-p= --path-to-ignore=',
      text: '-A=? --after=? -B=? --before=? -C=? --context=? -G= --file-search-regex= -m= --max-count= --depth= --ignore= --ignore-dir= -W= --width= --workers= --color-line-number= --color-match= --color-path=',
      runs: '--pager=',
      follows: '-f --follow'
    })
  },
  find: { why: 'lists files by name, type and time', operands: 'paths', options: none, parse: useOfFind },
  fd: {
    why: 'lists files by name',
    operands: 'pattern-then-paths',
    recursive: true,
    options: opts({
      reads: '--ignore-file= --base-directory= --search-path=',
      text: '-e= --extension= -t= --type= -E= --exclude= -d= --max-depth= --min-depth= --exact-depth= -S= --size= --changed-within= --changed-before= -o= --owner= -c= --color= -j= --threads= --max-results= --max-buffer-time= --batch-size= --path-separator= --format= --and= --hyperlink=?',
      runs: '-x= --exec= -X= --exec-batch=',
      follows: '-L --follow'
    })
  },
  tree: {
    why: 'draws a folder tree',
    operands: 'paths',
    recursive: true,
    options: opts({
      text: '-L= -P= -I= --filelimit= --timefmt= --charset= -T= --sort= --hintro= --houtro= -H=',
      reads: '--gitfile= --infofile=',
      writes: '-o= -R',
      follows: '-l'
    })
  },
  diff: {
    why: 'compares files',
    operands: 'paths',
    followsByDefault: true,
    options: opts({
      text: '-C= --context=? -U= --unified=? -W= --width= -I= --ignore-matching-lines= -F= --show-function-line= -x= --exclude= --label= -S= --starting-file= --line-format= --old-line-format= --new-line-format= --unchanged-line-format= --old-group-format= --new-group-format= --changed-group-format= --unchanged-group-format= --tabsize= --horizon-lines= --color=? --palette= -D= --ifdef=',
      reads: '-X= --exclude-from= --from-file= --to-file=',
      recursive: '-r --recursive',
      noFollow: '--no-dereference'
    })
  },
  cmp: reader('compares files byte by byte', '-i= --ignore-initial= -n= --bytes='),
  comm: reader('compares sorted files line by line', '--output-delimiter='),
  sort: {
    why: 'sorts lines and prints them',
    operands: 'paths',
    options: opts({
      text: '-k= --key= -t= --field-separator= -S= --buffer-size= --parallel= --batch-size= --sort=',
      reads: '--random-source=',
      writes: '-o= --output= -T= --temporary-directory=',
      runs: '--compress-program=',
      list: '--files0-from='
    })
  },
  uniq: {
    why: 'drops repeated lines',
    operands: 'input-output',
    options: opts({
      text: '-f= --skip-fields= -s= --skip-chars= -w= --check-chars= --all-repeated=? --group=?'
    })
  },
  cut: reader(
    'prints columns of lines',
    '-b= --bytes= -c= --characters= -f= --fields= -d= --delimiter= --output-delimiter='
  ),
  tr: words('translates characters of its input'),
  nl: reader(
    'numbers lines',
    '-b= -d= -f= -h= -i= -l= -n= -s= -v= -w= --body-numbering= --section-delimiter= --footer-numbering= --header-numbering= --line-increment= --join-blank-lines= --number-format= --number-separator= --starting-line-number= --number-width='
  ),
  basename: words('strips a path to its last part (text only)', '-s= --suffix='),
  dirname: words('strips the last part of a path (text only)'),
  realpath: {
    why: 'resolves paths',
    operands: 'paths',
    options: opts({ reads: '--relative-to= --relative-base=' })
  },
  readlink: reader('prints where links lead'),
  date: {
    why: 'prints the date',
    operands: 'none',
    options: opts({
      text: '-d= --date= -I=? --iso-8601=? --rfc-3339=',
      reads: '-f= --file= -r= --reference=',
      system: '-s= --set='
    }),
    special: (parsed, use) => {
      // `date MMDDhhmm` sets the clock; `date +FORMAT` only formats.
      for (const arg of parsed.operands)
        if (!arg.text.startsWith('+')) use.hazards.push({ hazard: 'system', option: arg.text })
    }
  },
  whoami: words('prints the user name'),
  id: words('prints user and group ids'),
  uname: words('prints system names'),
  hostname: {
    why: 'prints the host name',
    operands: 'none',
    options: opts({ reads: '-F= --file=', system: '-F= --file=' }),
    special: (parsed, use) => {
      // `hostname NAME` sets the host name.
      for (const arg of parsed.operands) use.hazards.push({ hazard: 'system', option: arg.text })
    }
  },
  true: words('does nothing'),
  false: words('does nothing'),
  test: words('tests file types and compares values (metadata only)'),
  '[': words('tests file types and compares values (metadata only)'),
  jq: { why: 'filters JSON', operands: 'paths', options: none, parse: useOfJq },
  sha1sum: checksum('prints checksums'),
  sha224sum: checksum('prints checksums'),
  sha256sum: checksum('prints checksums'),
  sha384sum: checksum('prints checksums'),
  sha512sum: checksum('prints checksums'),
  md5sum: checksum('prints checksums'),
  b2sum: checksum('prints checksums'),
  cksum: checksum('prints checksums'),
  od: reader(
    'dumps bytes',
    '-A= --address-radix= -j= --skip-bytes= -N= --read-bytes= -S=? --strings=? -t= --format= -w=? --width=? --endian='
  ),
  xxd: { why: 'dumps bytes as hex', operands: 'input-output', options: none, parse: useOfXxd },
  hexdump: { why: 'dumps bytes', operands: 'paths', options: opts({ text: '-e= -n= -s=', reads: '-f=' }) },
  strings: {
    why: 'prints printable strings in files',
    operands: 'paths',
    options: opts({
      text: '-n= --bytes= -t= --radix= -e= --encoding= -T= --target= -s= --output-separator= --unicode='
    }),
    special: (parsed, use) => {
      // binutils reads more options from `@file`.
      for (const arg of parsed.operands)
        if (arg.text.startsWith('@')) use.hazards.push({ hazard: 'list', option: arg.text })
    }
  },
  column: reader(
    'lays out columns',
    '-c= -s= -o= -C= -E= -H= -l= -N= -O= -r= -i= -p= -R= -T= -W= -n= --output-width= --separator= --output-separator= --table-columns= --table-name= --table-order= --table-right= --table-hide= --table-wrap= --table-truncate= --table-noextreme= --tree= --tree-id= --tree-parent='
  ),
  seq: words('prints numbers', '-f= --format= -s= --separator='),
  sleep: words('waits'),
  printenv: {
    why: 'prints environment variables by name',
    operands: 'none',
    options: none,
    special: (parsed, use) => {
      if (parsed.operands.length === 0) use.hazards.push({ hazard: 'env', option: '' })
      else use.shownVariables.push(...parsed.operands.map((a) => a.text))
    }
  },
  env: {
    // Reached only when env wraps no command: then it prints the environment.
    why: 'runs a command in a changed environment (without one, prints the environment)',
    operands: 'none',
    options: none,
    special: (_parsed, use) => use.hazards.push({ hazard: 'env', option: '' })
  },
  ps: {
    why: 'lists processes',
    operands: 'none',
    options: opts({
      text: '-o= -O= -p= -q= -u= -U= -g= -G= -t= -C= -s= --format= --sort= --pid= --ppid= --user= --group= --cols= --columns= --rows= --width=',
      env: '-E'
    }),
    special: (parsed, use) => {
      // BSD-style letters: `ps e`, `ps auxe`, `ps eww` add each process's environment.
      for (const arg of parsed.operands)
        if (/^[a-zA-Z]+$/.test(arg.text) && arg.text.includes('e'))
          use.hazards.push({ hazard: 'env', option: arg.text })
    }
  },
  cd: words('changes the working folder (judged by where it lands)', ''),
  sed: {
    why: 'edits a stream and prints it (without -i, w, e, r or a script file)',
    operands: 'pattern-then-paths',
    options: opts({
      pattern: '-e= --expression= -f= --file=',
      reads: '-f= --file=',
      text: '-l= --line-length= -i=? --in-place=?'
    }),
    special: (parsed, use) => {
      const verdict = classifySed(parsed)
      if (verdict) use.verdicts.push(verdict)
      if (verdict?.category === 'writes') use.writes.push(...use.reads.splice(0).map((r) => r.arg))
    }
  },
  paste: reader('joins lines of files', '-d= --delimiters='),
  fold: reader('wraps lines', '-w= --width='),
  rev: reader('reverses lines'),
  tac: reader('prints files last line first', '-s= --separator='),
  expr: words('evaluates an expression'),
  locale: words('prints locale settings'),
  nproc: words('prints the number of processors'),
  uptime: words('prints how long the system has run'),
  free: words('prints memory use', '-s= -c= --seconds= --count='),
  lsof: reader('lists open files', '-p= -u= -g= -c= -d= -s=? -F=? -r=? -k= -o=? -T=? -A= -D= -S=? -z=? -i=?'),
  less: pager('shows files page by page', {
    text: '-b= -h= -j= -p= --pattern= -P= --prompt= -t= --tag= -x= --tabs= -y= -z= -#= --shift= -D=',
    reads: '-T= --tag-file= -k= --lesskey-file= --lesskey-src=',
    writes: '-o= --log-file= -O= --LOG-FILE='
  }),
  more: pager('shows files page by page', { text: '-n=' }),
  tar: {
    why: 'lists archives (t); creating and extracting write',
    operands: 'paths',
    options: none,
    parse: useOfTar
  },
  unzip: {
    why: 'lists or tests archives (-l, -v, -t, -Z, -p); extracting writes',
    operands: 'paths',
    options: none,
    parse: useOfUnzip
  }
}

/** Programs that only look at things unless their table entry says otherwise. */
export const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set(Object.keys(READ_ONLY_TABLE))

/** What a read-only program touches with these arguments, or null for a program not in the table. */
export function useOfReadOnlyProgram(program: string, argv: Arg[]): ProgramUse | null {
  const entry = Object.hasOwn(READ_ONLY_TABLE, program) ? READ_ONLY_TABLE[program] : undefined
  if (!entry) return null
  // A pager with nothing to show waits for keys.
  if ((program === 'less' || program === 'more') && argv.length === 0) {
    const use = emptyUse()
    use.verdicts.push({ category: 'unknown', reason: reasonOf('interactive_pager') })
    return use
  }
  return useFromTable(entry, argv)
}
