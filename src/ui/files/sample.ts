/** The bundled sample table (public/sample/), fetched from the page's own origin. */

export const SAMPLE_FILES = ['employees.ibd', 'employees.sql'] as const;

/** Fetches the sample's .ibd and .sql as Files. `baseUrl` is relative to the page. */
export async function fetchSample(baseUrl = './sample/'): Promise<File[]> {
  const base = new URL(baseUrl, document.baseURI);
  return Promise.all(
    SAMPLE_FILES.map(async (name) => {
      const res = await fetch(new URL(name, base));
      if (!res.ok) throw new Error(`The sample file ${name} could not be loaded (HTTP ${res.status}).`);
      return new File([await res.blob()], name);
    }),
  );
}
