export default function App() {
  return <main data-testid="app">afterhack</main>
}
