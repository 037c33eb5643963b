/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The FastAPI app serves src/afterhack/static/index.html at `/` and the bundle at `/assets/*`
// (api/app.py `_mount_ui`), so the build goes straight there and nothing else at the root.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: '../src/afterhack/static',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8000',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
