// probity end-to-end program: show a list of words. buggy: the words run together; fixed: comma-separated.

function displayList(words: string[]): string {
    const joined: string = words.join("");
    return joined;
}

function main(): void {
    const shown: string = displayList(["alpha", "beta", "gamma"]);
    const env: { [key: string]: string | undefined } = (globalThis as any).process.env;
    const sink: string = env.GSD_DEBUG_PROBE_SINK ? "set" : "unset";
    console.log("E2E-OUTPUT list=[" + shown + "] sink=" + sink);
}

main();
