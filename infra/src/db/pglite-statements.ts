import { messages, parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Statements kept parsed per database; the used longest ago is closed when another is needed. */
export const STATEMENTS_KEPT = 256;

interface Statement {
  name: string;
  /** The type of each parameter, as the database inferred it: which serializer a value takes. */
  paramTypes: number[];
}

/**
 * PGlite's `query` parses, describes, binds and executes a statement as six calls into the
 * database, each a trip through WebAssembly, and parses and plans the text every time. That was
 * most of an upload's 202 in the embedded mode (the row's insert: 1.1 ms, half of it those trips).
 * Here a query's text is parsed once into a named statement (kept, up to `kept` of them), and each
 * query is then one call: bind, describe, execute and sync together, as a network client
 * pipelines them. Only the database's own top-level `query` changes: a transaction's statements
 * run as PGlite runs them. Results, type conversions and errors (with `query` and `params` on
 * them) are PGlite's own.
 */
export function keepStatementsParsed(client: PGlite, kept = STATEMENTS_KEPT): void {
  const plain = client.query.bind(client);
  /** By text and parameter types; a Map iterates oldest first, so re-inserting marks as used. */
  const statements = new Map<string, Statement>();
  /** Statements to close with the next call (pushed out of the cache). */
  const closing: string[] = [];
  let named = 0;

  const call = async (parts: Uint8Array[]) => {
    const pending = closing.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
    return (await client.execProtocol(Buffer.concat([...pending, ...parts]), { syncToFs: false })).messages;
  };

  const prepare = async (key: string, text: string, options?: QueryOptions): Promise<Statement> => {
    const name = `s${++named}`;
    const described = await call([
      protocol.serialize.parse({ name, text, types: options?.paramTypes }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ]);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    statements.set(key, statement);
    if (statements.size > kept) {
      const [oldest] = statements;
      statements.delete(oldest![0]);
      closing.push(oldest![1].name);
    }
    return statement;
  };

  const run = async (statement: Statement, params: unknown[], options?: QueryOptions) => {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    return call([
      protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
  };

  client.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    // Files in and out (COPY) need PGlite's own handling.
    if (options?.blob) return plain<T>(text, params, options);
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const key = `${options?.paramTypes?.join(',') ?? ''}|${text}`;
        try {
          let statement = statements.get(key);
          if (statement) {
            statements.delete(key);
            statements.set(key, statement);
          } else {
            statement = await prepare(key, text, options);
          }
          let result: messages.BackendMessage[];
          try {
            result = await run(statement, params, options);
          } catch (err) {
            // A table changed under a kept statement (its columns): parse it again, once.
            if (!(err instanceof messages.DatabaseError) || err.code !== '0A000') throw err;
            statements.delete(key);
            closing.push(statement.name);
            result = await run(await prepare(key, text, options), params, options);
          }
          await client.syncToFs();
          return parse.parseResults(result, client.parsers, options)[0] as Results<T>;
        } catch (err) {
          if (err instanceof messages.DatabaseError) Object.assign(err, { query: text, params, queryOptions: options });
          throw err;
        }
      }),
    );
  };
}
