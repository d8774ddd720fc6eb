#!/usr/bin/env node
import { runCli } from './cli/run.js';

// The one place besides config.ts that touches process.env: it hands it to the config loader.
process.exitCode = await runCli(process.argv.slice(2), process.env);
