// `npm run icons`: every icon the app and its installers use, generated from resources/icon.svg
// into build/icons/ (committed; run again after changing the SVG).
//
//   png/<N>x<N>.png        16…1024, the Linux icon set (electron-builder linux.icon)
//   icon.png               512 px, the window icon on Linux and Windows
//   icon.icns / icon.ico   macOS and Windows installers and executables
//   trayTemplate.png (+@2x) macOS menu bar: black glyph + alpha, macOS tints it for light/dark bars
//   tray.png (+@2x)        the colour tray icon for Windows and Linux
//
// @resvg/resvg-js rasterises the SVG (prebuilt per platform from npm, no downloads at run time);
// @shockpkg/icon-encoder writes ICNS and ICO from the PNGs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { IconIcns, IconIco } from '@shockpkg/icon-encoder'

const root = join(import.meta.dirname, '..')
const source = readFileSync(join(root, 'resources', 'icon.svg'), 'utf8')
const out = join(root, 'build', 'icons')

function render(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } })
    .render()
    .asPng()
}

/**
 * The tray glyph: the icon's speech bubble alone, solid black, with its three dots cut out — a
 * template image must be one colour plus transparency.
 */
function trayGlyphSvg(svg) {
  const bubble = /<path d="([^"]+)"/.exec(svg)?.[1]
  const dots = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g)]
  if (!bubble || dots.length === 0)
    throw new Error('resources/icon.svg changed shape: update trayGlyphSvg in scripts/icons.mjs')
  const holes = dots.map(([, cx, cy, r]) => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#000"/>`).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="52 52 152 152">
  <mask id="m"><rect x="0" y="0" width="256" height="256" fill="#fff"/>${holes}</mask>
  <path d="${bubble}" fill="#000" mask="url(#m)"/>
</svg>`
}

const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
// ICNS slots: OSType -> pixel size (the @2x slots hold twice the nominal size).
const ICNS_SLOTS = [
  ['ic04', 16],
  ['ic05', 32],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512]
]
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]

rmSync(out, { recursive: true, force: true })
mkdirSync(join(out, 'png'), { recursive: true })
const pngs = new Map(PNG_SIZES.map((size) => [size, render(source, size)]))
for (const [size, png] of pngs) writeFileSync(join(out, 'png', `${size}x${size}.png`), png)
writeFileSync(join(out, 'icon.png'), pngs.get(512))

const icns = new IconIcns()
icns.toc = true
for (const [type, size] of ICNS_SLOTS) await icns.addFromPng(pngs.get(size), [type])
writeFileSync(join(out, 'icon.icns'), icns.encode())

const ico = new IconIco()
for (const size of ICO_SIZES) await ico.addFromPng(pngs.get(size))
writeFileSync(join(out, 'icon.ico'), ico.encode())

const glyph = trayGlyphSvg(source)
writeFileSync(join(out, 'trayTemplate.png'), render(glyph, 16))
writeFileSync(join(out, 'trayTemplate@2x.png'), render(glyph, 32))
writeFileSync(join(out, 'tray.png'), pngs.get(32))
writeFileSync(join(out, 'tray@2x.png'), pngs.get(64))
console.log(`icons written to ${out}`)
