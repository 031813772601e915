/**
 * Preloaded by scripts/start.sh right after tsx: stack traces still point into the app's own
 * TypeScript (tsx's inline maps), but no package's source map is read. tsx turns Node's support on
 * for every file, and each package's map stayed in memory with its sources (Next.js's TypeScript,
 * Fedify's, OpenTelemetry's...): docs/benchmarks/log/2026-11-28.md, "Source maps of our own code only".
 */
import module from 'node:module';

module.setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
