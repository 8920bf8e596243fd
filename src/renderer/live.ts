import { debounce, throttle, useEvents } from './api/events';
import { useConnections } from './features/connections/store';
import { useJobs } from './features/jobs/store';
import { useMemories } from './features/memories/store';
import { useSettings } from './features/settings/store';
import { useUserModel } from './features/user-model/store';
import { usePersonas } from './stores/personas';

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
  useEvents((onCleanup) => {
    // The sidebar's counts: a steady stream of changes (embeddings, an import) must not hold them back.
    const personas = throttle(() => void usePersonas.getState().load(), 500);
    // Jobs change in bursts (one per embedded row): at most one reload a second, never held off by the burst.
    const jobs = throttle(() => {
      if (useJobs.getState().persona) void useJobs.getState().reload();
    }, 1000);
    const connections = debounce(() => void useConnections.getState().reload(), 250);
    onCleanup(() => [personas, jobs, connections].forEach((d) => d.cancel()));
    return {
      'mcp.changed': connections,
      'personas.changed': (e) => void personaChanged(e.persona),
      'knowledge.changed': personas,
      'memories.changed': (e) => {
        // A new embedding changes no count.
        if (e.reason !== 'embedded') personas();
        void useMemories.getState().applyChange(e);
      },
      'userModel.changed': (e) => {
        personas();
        if (e.persona === useUserModel.getState().persona) void useUserModel.getState().reload();
      },
      'jobs.changed': jobs,
      'settings.changed': () => {
        if (useSettings.getState().settings) void useSettings.getState().load();
      },
    };
  });
}
