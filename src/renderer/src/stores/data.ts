import { defineStore } from 'pinia'
import {
  dataBackup,
  dataDownloadBackup,
  dataExportChat,
  dataImportChat,
  dataListBackups,
  dataRestoreBackup,
  dataUploadBackup
} from '@shared/contracts/routes/data.routes'
import type { ChatExportFormat, ChatImportResult, ExportedFile } from '@shared/types/chatExport'
import { drawExportDiagrams } from '@renderer/lib/exportDiagrams'
import { useBridge } from '@renderer/api/bridge'
import { toBase64 } from './lib/base64'
import { reloadWhenHostRestarts } from './lib/reloadAfterRestart'

/**
 * Saves a file the back end made. A download in the browser; in the desktop app Electron
 * shows its native save dialog for the same download.
 */
export function saveFile(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/** Chat export and import. */
export const useDataStore = defineStore('data', () => {
  async function exportChat(sessionId: string, format: ChatExportFormat): Promise<ExportedFile> {
    const exported = await useBridge().call(dataExportChat, { sessionId, format })
    // Diagrams are drawn here, where a browser can lay them out (lib/exportDiagrams.ts).
    const file =
      format === 'html'
        ? { ...exported, content: (await drawExportDiagrams(exported.content)).html }
        : exported
    saveFile(file)
    return file
  }

  /** The new chat, and a note for each attachment that came back by name only. */
  function importChat(content: string): Promise<ChatImportResult> {
    return useBridge().call(dataImportChat, { content })
  }

  /** A whole-data backup into the backup folder; the API keys only when asked for. */
  function backup(includeSecrets: boolean) {
    return useBridge().call(dataBackup, { includeSecrets })
  }

  /** Checks and stages a backup; the data is replaced when the app next starts. */
  /** In the browser the host rebuilds its back end to apply the restore; the page reloads when it is back. */
  async function restoreBackup(path: string) {
    const bridge = useBridge()
    const staged = await bridge.call(dataRestoreBackup, { path })
    if (bridge.transport.kind === 'websocket') reloadWhenHostRestarts()
    return staged
  }

  /** The backup folder and its daily database copies and archives, newest first. */
  function listBackups() {
    return useBridge().call(dataListBackups, {})
  }

  /** Saves a listed backup through the browser's download (headless host: its folders are not the user's). */
  async function downloadBackup(path: string): Promise<void> {
    const file = await useBridge().call(dataDownloadBackup, { path })
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }))
    const link = document.createElement('a')
    link.href = url
    link.download = file.name
    link.dataset.testid = 'backup-download-link'
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }

  /** Hands a backup the user chose in the browser to main, which checks it before any restore is offered. */
  async function uploadBackup(file: File) {
    const bytes = new Uint8Array(await file.arrayBuffer())
    return useBridge().call(dataUploadBackup, { fileName: file.name, base64: toBase64(bytes) })
  }

  /** In a browser the host's folders are not the user's: backups are downloads and uploads. */
  function inBrowser(): boolean {
    return useBridge().transport.kind === 'websocket'
  }

  return {
    exportChat,
    importChat,
    backup,
    restoreBackup,
    listBackups,
    downloadBackup,
    uploadBackup,
    inBrowser
  }
})
