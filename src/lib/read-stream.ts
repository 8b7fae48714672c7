/** Reads a byte stream chunk by chunk as text, calling `onText` for each piece. */
export async function readStreamText(stream: ReadableStream<Uint8Array>, onText: (text: string) => void) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onText(decoder.decode(value, { stream: true }));
  }
}
