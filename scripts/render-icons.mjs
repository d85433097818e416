// Renders the PNG icons the dashboard's web app manifest, iOS and push notifications need from the
// drawings in web/icons/ (an SVG favicon is not enough: Chrome shows no SVG in a notification and
// asks for 192 and 512 px images to install the app; iOS takes a PNG for the home screen). The
// PNGs are committed; run this after changing a drawing:  node scripts/render-icons.mjs
// It needs Chromium (the one the browser tests use: CHROMIUM_PATH, else Debian's).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);

/** Each PNG in web/public/: the drawing it is made from and its size in pixels. */
export const ICONS = [
  { file: 'icon-192.png', drawing: 'web/public/favicon.svg', size: 192 },
  { file: 'icon-512.png', drawing: 'web/public/favicon.svg', size: 512 },
  // Full bleed, the bell inside the central 80 % that every platform's mask keeps.
  { file: 'icon-maskable-512.png', drawing: 'web/icons/maskable.svg', size: 512 },
  // iOS rounds the corners itself.
  { file: 'apple-touch-icon.png', drawing: 'web/icons/maskable.svg', size: 180 },
  // Android draws a notification's badge from its alpha channel alone, in the status bar.
  { file: 'badge-96.png', drawing: 'web/icons/badge.svg', size: 96 },
];

const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, drawing, size } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const svg = readFileSync(at(drawing), 'utf8');
    await page.setContent(`<html><body style="margin:0;background:transparent"><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`);
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: at('web/public', file), omitBackground: true });
    await page.close();
    process.stdout.write(`web/public/${file} (${size} px) from ${drawing}\n`);
  }
} finally {
  await browser.close();
}
