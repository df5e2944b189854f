// Types of the corpus script's exports, for its test (test/corpus.test.ts).
export interface CorpusDocument {
  id: string;
  path: string;
}
export interface PlanOutcome {
  id: string;
  result: 'planned' | 'refused' | 'crashed' | 'hung';
  reason?: string;
  planned?: number;
  skipped?: number;
  reasons?: string[];
  unexplained?: string[];
  seconds: number;
}
export function corpusDocuments(): CorpusDocument[];
export function spreadSample<T>(items: T[], n: number): T[];
export function planDocument(document: CorpusDocument, seconds?: number): Promise<PlanOutcome>;
export function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]>;
