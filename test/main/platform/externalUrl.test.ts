import { describe, expect, it } from 'vitest'
import { checkExternalUrl, httpOnlyOpener } from '../../../src/main/platform/externalUrl'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

const REFUSED = [
  'file:///etc/passwd',
  'file://host/share/x.desktop',
  'FILE:///C:/Windows/System32/calc.exe',
  'smb://attacker.example/share',
  'nfs://attacker.example/export',
  'ftp://example.com/file',
  'sftp://example.com/',
  'ssh://example.com',
  'javascript:alert(1)',
  ' javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'blob:https://example.com/uuid',
  'about:blank',
  'chrome://settings',
  'ms-msdt:/id PCWDiagnostic',
  'search-ms:query=x&crumb=location:\\\\attacker\\share',
  'vscode://file/home/me/.bashrc',
  'x-deepchat-evil://run?cmd=id',
  'deepchat://mcp/add?x=1',
  'mailto:a@example.com',
  'tel:+100',
  'steam://run/1',
  'zoommtg://zoom.us/join',
  'jar:file:///x.jar!/',
  'https://user:secret@example.com/',
  '//example.com/no-scheme',
  'example.com',
  '/etc/passwd',
  '',
  'https://example.com/' + 'a'.repeat(17_000)
]

const ALLOWED: Array<[string, string]> = [
  ['https://example.com/docs', 'https://example.com/docs'],
  ['http://127.0.0.1:8080/authorize?x=1', 'http://127.0.0.1:8080/authorize?x=1'],
  ['HTTPS://Example.COM/a b', 'https://example.com/a%20b'],
  ['https://[::1]/x', 'https://[::1]/x'],
  // The parser's own repairs: the opener gets the repaired form, never the raw text.
  ['https://@example.com/', 'https://example.com/'],
  ['http:///nohost', 'http://nohost/'],
  ['https://example.com/\u202eexe.pdf', 'https://example.com/%E2%80%AEexe.pdf']
]

describe('the one way out to the OS opener', () => {
  it.each(REFUSED)('refuses %s with a reason', (url) => {
    const check = checkExternalUrl(url)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.reason.length).toBeGreaterThan(5)
  })

  it.each(ALLOWED)('allows %s and opens its parsed form', (url, href) => {
    expect(checkExternalUrl(url)).toEqual({ ok: true, href })
  })

  it('never calls the opener for a refused address, and says which one and why', async () => {
    const opened: string[] = []
    const open = httpOnlyOpener(async (href) => void opened.push(href))
    for (const url of REFUSED) await expect(open(url)).rejects.toMatchObject({ code: 'external_url_refused' })
    await expect(open('smb://attacker.example/share')).rejects.toThrow(
      /Not opened: smb:\/\/attacker\.example\/share \(only http and https links open outside the app, not smb:\)/
    )
    await open('https://example.com/')
    expect(opened).toEqual(['https://example.com/'])
  })

  it("the headless host's opener refuses a file: address before running any program", async () => {
    const lines: string[] = []
    const platform = createNodePlatform({ dataDir: tempDir(), log: (line) => lines.push(line) })
    await expect(platform.openExternal('file:///etc/passwd')).rejects.toMatchObject({
      code: 'external_url_refused'
    })
    expect(lines).toEqual([])
  })

  it('the app.openExternal route answers a refused address with its reason for the page to show', async () => {
    const presenters = createPresenters(createNodePlatform({ dataDir: tempDir(), log: () => {} }), {
      log: () => {}
    })
    try {
      const router = createRouter(presenters)
      const answer = await router.invoke(
        'app.openExternal',
        { url: 'smb://attacker.example/share' },
        { transport: 'test', clientId: 't' }
      )
      expect(answer).toMatchObject({
        ok: false,
        error: {
          code: 'external_url_refused',
          message: expect.stringContaining('only http and https links open outside the app, not smb:')
        }
      })
    } finally {
      await presenters.dispose()
    }
  })
})
