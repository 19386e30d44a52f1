import { useI18n } from 'vue-i18n'
import type { PermissionRequest, ReasonCode } from '@shared/types/permission'

/**
 * Permission reasons in the UI language: main sends English text plus stable codes; a code with
 * a message (`permissionReasons.<code>`) is shown translated, anything else as the English text.
 */
export function usePermissionReasons(): {
  reasonText: (text: string, code: ReasonCode | undefined) => string
  requestReason: (request: Pick<PermissionRequest, 'reason' | 'reasonCodes'> | null) => string
} {
  const { t, te } = useI18n()
  const translatable = (code: ReasonCode): boolean => te(`permissionReasons.${code.code}`)
  return {
    reasonText: (text, code) =>
      code && translatable(code) ? t(`permissionReasons.${code.code}`, code.params ?? {}) : text,
    // A summary is translated only when every part of it can be, never half and half.
    requestReason: (request) => {
      const codes = request?.reasonCodes ?? []
      if (!request || codes.length === 0 || !codes.every(translatable)) return request?.reason ?? ''
      return codes
        .map((c) => t(`permissionReasons.${c.code}`, c.params ?? {}))
        .join(t('permissionReasonSeparator'))
    }
  }
}
