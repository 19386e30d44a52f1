import { describe, expect, it } from 'vitest'
import { bypassMatcher } from '../../../src/main/presenter/networkPresenter/bypass'

describe('proxy bypass list', () => {
  const bypassed = bypassMatcher(['example.com', '*.corp.test', '.intra', '10.0.0.0/8', '::1', '<local>'])

  it('a domain covers itself and its subdomains, never a look-alike', () => {
    expect(bypassed('example.com')).toBe(true)
    expect(bypassed('API.Example.com')).toBe(true)
    expect(bypassed('notexample.com')).toBe(false)
    expect(bypassed('example.com.evil.net')).toBe(false)
  })

  it('*.domain and .domain cover only subdomains', () => {
    expect(bypassed('a.corp.test')).toBe(true)
    expect(bypassed('corp.test')).toBe(false)
    expect(bypassed('x.intra')).toBe(true)
    expect(bypassed('intra')).toBe(true) // a dotless name: <local>
  })

  it('IP entries and CIDR ranges match addresses only', () => {
    expect(bypassed('10.1.2.3')).toBe(true)
    expect(bypassed('11.1.2.3')).toBe(false)
    expect(bypassed('[::1]')).toBe(true)
    expect(bypassed('::2')).toBe(false)
  })

  it('<local> covers dotless names; an empty list bypasses nothing; * bypasses all', () => {
    expect(bypassed('printer')).toBe(true)
    expect(bypassMatcher([])('localhost')).toBe(false)
    expect(bypassMatcher(['*'])('anything.example')).toBe(true)
  })
})
