import { useEffect } from 'react';
import { getApi } from './api';
import { useConnections } from './features/connections/store';
import { useJobs } from './features/jobs/store';
import { useMemories } from './features/memories/store';
import { useSettings } from './features/settings/store';
import { useUserModel } from './features/user-model/store';
import { usePersonas } from './stores/personas';

/** Calls `fn` at most once per `ms`, after the burst settles. */
function debounce(fn: () => void, ms: number): () => void {
  let t: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (t) clearTimeout(t);
    t = setTimeout(fn, ms);
  };
}

/** Emptying a persona (deleting main) removes its rows without one event per row: reload what shows it. */
async function personaChanged(persona: string | undefined): Promise<void> {
  await usePersonas.getState().load();
  // A persona that is gone now has nothing to reload (the switcher falls back to main).
  if (!persona || !usePersonas.getState().personas.some((p) => p.id === persona)) return;
  if (persona === useMemories.getState().persona) void useMemories.getState().reload();
  if (persona === useUserModel.getState().persona) void useUserModel.getState().reload();
}

/** Pushed events keep every store current without polling. */
export function useLiveUpdates(): void {
  useEffect(() => {
    const api = getApi();
    const personas = debounce(() => void usePersonas.getState().load(), 400);
    const jobs = debounce(() => {
      if (useJobs.getState().persona) void useJobs.getState().reload();
    }, 300);
    const connections = debounce(() => void useConnections.getState().reload(), 250);
    const offs = [
      api.on('mcp.changed', connections),
      api.on('personas.changed', (e) => void personaChanged(e.persona)),
      api.on('knowledge.changed', personas),
      api.on('memories.changed', (e) => {
        personas();
        void useMemories.getState().applyChange(e);
      }),
      api.on('userModel.changed', (e) => {
        personas();
        if (e.persona === useUserModel.getState().persona) void useUserModel.getState().reload();
      }),
      api.on('jobs.changed', jobs),
      api.on('settings.changed', () => {
        if (useSettings.getState().settings) void useSettings.getState().load();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, []);
}
