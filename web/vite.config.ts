import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is built into web/dist, which the kernel serves. Everything it shows comes
// from the kernel's GraphQL API on the same origin.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // hashed file names: the kernel serves assets/ as immutable
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1200,
  },
});
