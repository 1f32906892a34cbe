import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './harness.js';

/**
 * A request on a real record of `companyId` that the route accepts: its path parameters, and the
 * query or body it needs so that the lookup is reached (not refused with 400 before it). The
 * generated auth suite (src/platform/app/auth-coverage.test.ts) sends it under another company's key and
 * expects 404, so the tenancy test can only pass if the route really hides the record.
 */
export interface RouteRequest {
  params: Record<string, string>;
  query?: string;
  body?: object;
}
export type RouteFixture = (t: TestApp, companyId: string) => Promise<RouteRequest>;
/** Keyed by "METHOD /path" as the OpenAPI document writes it (relative to /v1). */
export type RouteFixtures = Record<string, RouteFixture>;

const FEATURES = join(import.meta.dirname, '..', 'src', 'features');

/**
 * Every feature's route-fixtures.ts (src/features/<name>/route-fixtures.ts exports `routeFixtures`),
 * merged; a route claimed by two features is an error.
 */
export async function loadRouteFixtures(featureNames: readonly string[]): Promise<RouteFixtures> {
  return loadFixtures(featureNames, 'route-fixtures.ts', 'routeFixtures');
}

/**
 * The panel's fixtures: each feature's panel-route-fixtures.ts exports `panelRouteFixtures`, keyed by
 * "METHOD /path" relative to /panel/api (src/platform/app/panel/panel-permission-coverage.test.ts uses them).
 */
export async function loadPanelRouteFixtures(featureNames: readonly string[]): Promise<RouteFixtures> {
  return loadFixtures(featureNames, 'panel-route-fixtures.ts', 'panelRouteFixtures');
}

async function loadFixtures(featureNames: readonly string[], fileName: string, exportName: string): Promise<RouteFixtures> {
  const merged: RouteFixtures = {};
  for (const name of featureNames) {
    const file = join(FEATURES, name, fileName);
    if (!existsSync(file)) continue;
    const fixtures = ((await import(file)) as Record<string, RouteFixtures>)[exportName];
    for (const [operation, fixture] of Object.entries(fixtures)) {
      if (merged[operation]) throw new Error(`Two features give a fixture for ${operation}.`);
      merged[operation] = fixture;
    }
  }
  return merged;
}
