/** A running throwaway cluster, or why there is none (PostgreSQL not installed). */
export type PostgresCluster = { url: string; stop(): void; skip?: undefined } | { skip: string; url?: undefined; stop?: undefined };
export function startPostgres(): Promise<PostgresCluster>;
