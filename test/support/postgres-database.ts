import pg from 'pg';

/** Creates database `name` on the server of `adminUrl` (a copy of `template` if given); its URL. */
export async function createDatabaseOn(adminUrl: string, name: string, template = ''): Promise<string> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}
