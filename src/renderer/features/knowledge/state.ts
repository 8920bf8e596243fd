import type { StoreApi } from 'zustand';
import type { Events, Job, JobProgress, KnowledgeSource, RecallHit } from '../../../shared/api';

/** A file on its way in: from the drop until its job completes or fails. */
export interface Ingest {
  key: string;
  jobId: string | null;
  persona: string;
  source: string;
  state: 'uploading' | 'queued' | 'running' | 'retrying' | 'failed';
  progress: JobProgress | null;
  error: string | null;
}

/** A dropped file whose name is already a source: the person chooses Replace or Keep both. */
export interface NameConflict {
  persona: string;
  file: File;
  /** Every source name the persona has, for picking a free name. */
  taken: string[];
}

export interface KnowledgeState {
  persona: string | null;
  sources: KnowledgeSource[];
  loaded: boolean;
  ingests: Ingest[];
  query: string;
  hits: RecallHit[] | null;
  searching: boolean;
  open(persona: string): void;
  reload(): Promise<void>;
  /** Files the person added: new names go in at once, taken names wait in `conflicts` for a choice. */
  addFiles(persona: string, files: File[]): Promise<void>;
  conflicts: NameConflict[];
  resolveConflict(choice: 'replace' | 'keep-both' | 'skip'): void;
  ingestFiles(persona: string, files: File[], asName?: string): Promise<void>;
  remove(source: string): Promise<boolean>;
  search(query: string): Promise<void>;
  dismiss(key: string): void;
  onProgress(e: Events['ingest.progress']): void;
  onJob(job: Job): void;
}

export type KnowledgeSet = StoreApi<KnowledgeState>['setState'];
export type KnowledgeGet = StoreApi<KnowledgeState>['getState'];
