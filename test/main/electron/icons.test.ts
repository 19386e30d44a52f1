import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Resvg } from '@resvg/resvg-js'

// The committed outputs of `npm run icons` (scripts/icons.mjs) are what installers and the tray use.
const icons = join(import.meta.dirname, '..', '..', '..', 'build', 'icons')

function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file)
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG')
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

/** RGBA pixels of a PNG, decoded by drawing it with resvg (the library that made it). */
function pixels(file: string, size: number): Uint8Array {
  const data = readFileSync(file).toString('base64')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><image width="${size}" height="${size}" href="data:image/png;base64,${data}"/></svg>`
  return new Resvg(svg).render().pixels
}

describe('generated icons', () => {
  it('has the Linux PNG set up to 1024 px, each the size its name says', () => {
    const files = readdirSync(join(icons, 'png')).sort((a, b) => parseInt(a) - parseInt(b))
    expect(files).toEqual([
      '16x16.png',
      '24x24.png',
      '32x32.png',
      '48x48.png',
      '64x64.png',
      '128x128.png',
      '256x256.png',
      '512x512.png',
      '1024x1024.png'
    ])
    for (const file of files) {
      const n = parseInt(file)
      expect(pngSize(join(icons, 'png', file)), file).toEqual({ width: n, height: n })
    }
  })

  it('has an .icns with the Retina sizes and an .ico up to 256 px', () => {
    const icns = readFileSync(join(icons, 'icon.icns'))
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns')
    expect(icns.readUInt32BE(4)).toBe(icns.length)
    for (const type of ['ic04', 'ic05', 'ic07', 'ic08', 'ic09', 'ic10', 'ic11', 'ic12', 'ic13', 'ic14']) {
      expect(icns.includes(Buffer.from(type, 'latin1')), type).toBe(true)
    }
    const ico = readFileSync(join(icons, 'icon.ico'))
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1])
    const count = ico.readUInt16LE(4)
    // Directory entries: width byte 0 means 256.
    const widths = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256)
    expect(widths).toEqual([16, 24, 32, 48, 64, 128, 256])
  })

  it('has a monochrome template tray icon for macOS and a colour one for the others', () => {
    expect(pngSize(join(icons, 'trayTemplate.png'))).toEqual({ width: 16, height: 16 })
    expect(pngSize(join(icons, 'trayTemplate@2x.png'))).toEqual({ width: 32, height: 32 })
    expect(pngSize(join(icons, 'tray.png'))).toEqual({ width: 32, height: 32 })
    expect(pngSize(join(icons, 'tray@2x.png'))).toEqual({ width: 64, height: 64 })
    expect(pngSize(join(icons, 'icon.png'))).toEqual({ width: 512, height: 512 })
    // A template image is black plus transparency; macOS tints it for light and dark menu bars.
    const template = pixels(join(icons, 'trayTemplate@2x.png'), 32)
    const alphas = new Set<number>()
    for (let i = 0; i < template.length; i += 4) {
      expect([template[i], template[i + 1], template[i + 2]]).toEqual([0, 0, 0])
      alphas.add(template[i + 3])
    }
    expect(alphas.has(0) && alphas.has(255)).toBe(true)
    const colour = pixels(join(icons, 'tray.png'), 32)
    expect(colour.some((value, i) => i % 4 === 2 && value > 200)).toBe(true) // the indigo background
  })
})
