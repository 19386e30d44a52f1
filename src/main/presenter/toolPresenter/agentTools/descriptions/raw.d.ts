// Tool descriptions are Markdown files imported as text (Vite `?raw`; bench/tools.bench.ts
// registers the same for plain Node).
declare module '*.md?raw' {
  const text: string
  export default text
}
