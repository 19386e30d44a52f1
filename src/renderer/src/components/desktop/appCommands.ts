import { nextTick } from 'vue'
import type { Router } from 'vue-router'
import type { AppCommand } from '@shared/types/desktop'

function focus(selector: string): void {
  document.querySelector<HTMLElement>(selector)?.focus()
}

/** What the desktop app's menu, tray and shortcuts do in the window (`app.command.invoked`). */
export async function runAppCommand(command: AppCommand, router: Router): Promise<void> {
  switch (command) {
    case 'newChat':
      await router.push('/')
      await nextTick()
      focus('[data-testid="chat-input-text"]')
      return
    case 'search':
      focus('#history-search')
      return
    case 'settings':
      await router.push('/settings')
      return
  }
}
