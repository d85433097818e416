import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The browser tests build web/dist from inside vitest, which sets NODE_ENV=test: Vite would then
// bundle React's development build (jsx-dev-runtime, ~70 KB more gzipped). web/dist must be the
// production build whoever starts it (NODE_ENV=development still gives a debug build on purpose).
if (process.env.NODE_ENV === 'test' && process.argv.includes('build')) process.env.NODE_ENV = 'production';

export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // Locales live at the repo root (shared with the bot); allow Vite to read them.
  server: {
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/healthz': 'http://127.0.0.1:3000',
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // One chunk per lazily loaded language instead of one per namespace file (English, the
            // fallback, is part of the entry: see web/src/lib/i18n.ts).
            {
              debugName: 'locales',
              name: (id) => {
                const lng = /[\\/]locales[\\/](\w+)[\\/][\w-]+\.json$/.exec(id)?.[1];
                return lng && lng !== 'en' ? `locale-${lng}` : null;
              },
            },
          ],
        },
      },
    },
  },
});
