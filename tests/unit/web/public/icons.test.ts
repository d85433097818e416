/**
 * The raster icons the web app manifest, iOS and push notifications use (scripts/render-icons.mjs
 * draws them): each file named exists in web/public/ with the size it is declared with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const PUBLIC = path.join(REPO_ROOT, 'web/public');

/** Width and height from a PNG's IHDR chunk; throws for anything that is not a PNG. */
function pngSize(file: string): { width: number; height: number; colourType: number } {
  const bytes = readFileSync(path.join(PUBLIC, file));
  expect(bytes.subarray(0, 8).toString('hex'), `${file} is not a PNG`).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colourType: bytes[25]! };
}

describe('web app icons', () => {
  it('every PNG of the manifest has the size it declares', () => {
    const manifest = JSON.parse(readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8')) as { icons: { src: string; sizes: string; type: string }[] };
    const pngs = manifest.icons.filter((i) => i.type === 'image/png');
    expect(pngs.length).toBeGreaterThanOrEqual(3);
    for (const icon of pngs) {
      const { width, height } = pngSize(icon.src.replace(/^\//, ''));
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
  });

  it('the home-screen icon of iOS is a 180 px PNG the page links to', () => {
    const html = readFileSync(path.join(REPO_ROOT, 'web/index.html'), 'utf8');
    const href = /<link rel="apple-touch-icon" href="\/([^"]+)"/.exec(html)?.[1];
    expect(href).toBe('apple-touch-icon.png');
    expect(pngSize(href!)).toMatchObject({ width: 180, height: 180 });
  });

  it('notifications show a PNG icon and a badge with transparency (Android draws the badge from its alpha)', () => {
    const logic = readFileSync(path.join(PUBLIC, 'sw-logic.js'), 'utf8');
    const icon = /var ICON = '\/([^']+)'/.exec(logic)?.[1];
    const badge = /var BADGE = '\/([^']+)'/.exec(logic)?.[1];
    expect(pngSize(icon!).width).toBeGreaterThanOrEqual(192);
    // Colour type 6: RGBA.
    expect(pngSize(badge!)).toMatchObject({ width: 96, height: 96, colourType: 6 });
  });
});
