import { describe, expect, it } from 'vitest'
import ProvidersSettings from '@renderer/pages/settings/ProvidersSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

async function openAdd(presetId: string) {
  const page = await mountPage(ProvidersSettings)
  await page.wrapper.get('[data-testid="provider-add"]').trigger('click')
  await page.wrapper.get('[data-testid="provider-preset"]').setValue(presetId)
  return page
}

describe('Settings > Model providers: Azure, Vertex and Bedrock fields', () => {
  it('builds the Azure URL from the resource name and stores the deployment and URL settings', async () => {
    const { wrapper, bridge } = await openAdd('azure')
    await wrapper.get('[data-testid="azure-resource"]').setValue('contoso-ai')
    expect((wrapper.get('[data-testid="provider-url"]').element as HTMLInputElement).value).toBe(
      'https://contoso-ai.openai.azure.com/openai'
    )
    await wrapper.get('[data-testid="azure-deployment"]').setValue('gpt4o-prod')
    await wrapper.get('[data-testid="azure-deployment-urls"]').setValue(true)
    await wrapper.get('[data-testid="azure-api-version"]').setValue('2024-06-01')
    await wrapper.get('[data-testid="provider-key"]').setValue('azure-key-0123456789abcdef')
    await wrapper.get('#provider-add-form').trigger('submit')

    await eventually(async () => expect(await bridge.presenters.llmProviders.listProviders()).toHaveLength(1))
    const [stored] = await bridge.presenters.llmProviders.listProviders()
    expect(stored).toMatchObject({
      kind: 'azure',
      baseUrl: 'https://contoso-ai.openai.azure.com/openai',
      settings: { deploymentUrls: true, apiVersion: '2024-06-01' },
      hasApiKey: true
    })
    expect(stored.models.map((m) => m.id)).toEqual(['gpt4o-prod'])
  })

  it('stores the Bedrock region, access key id and session token, showing neither secret', async () => {
    const { wrapper, bridge } = await openAdd('bedrock')
    await wrapper.get('[data-testid="bedrock-region"]').setValue('eu-central-1')
    await wrapper.get('[data-testid="bedrock-access-key-id"]').setValue('AKIAIOSFODNN7EXAMPLE')
    await wrapper.get('[data-testid="bedrock-session-token"]').setValue('session-token-SECRET-0001')
    await wrapper.get('[data-testid="provider-key"]').setValue('secret-access-key-SECRET-0002')
    await wrapper.get('#provider-add-form').trigger('submit')

    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-detail-name"]').text()).toBe('Amazon Bedrock')
    )
    const [stored] = await bridge.presenters.llmProviders.listProviders()
    expect(stored).toMatchObject({
      kind: 'bedrock',
      settings: { region: 'eu-central-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' },
      hasApiKey: true,
      hasSessionToken: true
    })
    expect(wrapper.html()).not.toContain('SECRET-000')
    expect((wrapper.get('[data-testid="bedrock-session-token"]').element as HTMLInputElement).value).toBe('')
  })

  it('names the Bedrock fields main refused as the form labels them, not by schema path', async () => {
    const { wrapper, bridge } = await openAdd('bedrock')
    await wrapper.get('[data-testid="bedrock-region"]').setValue('Frankfurt')
    await wrapper.get('[data-testid="bedrock-access-key-id"]').setValue('akia-lowercase')
    await wrapper.get('[data-testid="provider-key"]').setValue('secret-access-key-0002')
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-add-error"]').text()).toContain('Region: like us-east-1')
    )
    const text = wrapper.get('[data-testid="provider-add-error"]').text()
    expect(text).toContain('Access key ID: like AKIA…')
    expect(text).not.toMatch(/settings\.|Invalid input for/)
    expect(await bridge.presenters.llmProviders.listProviders()).toEqual([])
  })

  it('edits the Vertex project and location on the provider page', async () => {
    const { wrapper, bridge } = await openAdd('vertex')
    await wrapper.get('[data-testid="vertex-location"]').setValue('europe-west4')
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-detail-name"]').text()).toBe('Google Vertex AI')
    )
    await wrapper.get('[data-testid="vertex-project"]').setValue('my-project-123')
    await wrapper
      .get('[data-testid="provider-detail-url"]')
      .element.closest('form')!
      .dispatchEvent(new Event('submit'))
    await eventually(async () =>
      expect((await bridge.presenters.llmProviders.listProviders())[0].settings).toEqual({
        location: 'europe-west4',
        project: 'my-project-123'
      })
    )
  })

  it('takes a Vertex service-account key file in a multi-line field, typed or loaded from a file', async () => {
    const { wrapper, bridge } = await openAdd('vertex')
    const key = wrapper.get('[data-testid="provider-key"]')
    expect(key.element.tagName).toBe('TEXTAREA')
    const keyFile = JSON.stringify(
      {
        type: 'service_account',
        project_id: 'my-project-123',
        client_email: 'bot@my-project-123.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n'
      },
      null,
      2
    )
    const picker = wrapper.get('[data-testid="provider-key-file"]')
    Object.defineProperty(picker.element, 'files', {
      configurable: true,
      value: [new File([keyFile], 'key.json', { type: 'application/json' })]
    })
    await picker.trigger('change')
    await eventually(() => expect((key.element as HTMLTextAreaElement).value).toBe(keyFile))
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(async () => expect(await bridge.presenters.llmProviders.listProviders()).toHaveLength(1))
    const [stored] = await bridge.presenters.llmProviders.listProviders()
    expect(stored).toMatchObject({ kind: 'vertex', hasApiKey: true })
    expect(stored.apiKeyMasked).toContain('bot@my-project-123')
    // The provider page takes a new key file the same way.
    expect(wrapper.get('[data-testid="provider-detail-key"]').element.tagName).toBe('TEXTAREA')
  })

  it('keeps a one-line password field for the keys of other kinds', async () => {
    const { wrapper } = await openAdd('deepseek')
    const key = wrapper.get('[data-testid="provider-key"]')
    expect(key.element.tagName).toBe('INPUT')
    expect(key.attributes('type')).toBe('password')
  })
})
