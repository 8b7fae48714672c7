import { runTool } from './ffmpeg';

/** Longest text kept per slide. */
export const MAX_SLIDE_TEXT = 2_000;

export type OcrTools = { tesseractPath: string; ocrLanguages: string };

/** Says why Tesseract cannot read slides here (missing, or a language not installed), or undefined when it can. */
export function checkTesseract(tools: OcrTools): string | undefined {
  let listed: string;
  try {
    const result = Bun.spawnSync([tools.tesseractPath, '--list-langs'], { stdout: 'pipe', stderr: 'pipe' });
    if (result.exitCode !== 0) return `${tools.tesseractPath} does not run.`;
    listed = `${result.stdout.toString()}\n${result.stderr.toString()}`;
  } catch {
    return `${tools.tesseractPath} was not found: slides are indexed without their words. Install tesseract-ocr and tesseract-ocr-eng (scripts/system-deps.sh), or set TESSERACT_PATH.`;
  }
  const installed = new Set(listed.split('\n').map((line) => line.trim()));
  const missing = tools.ocrLanguages.split('+').filter((language) => !installed.has(language));
  if (missing.length) {
    return `Tesseract has no ${missing.join(', ')} (OCR_LANGUAGES): install tesseract-ocr-${missing[0]}. Slides are indexed without their words.`;
  }
  return undefined;
}

/** Whitespace folded, lines without a word of two letters or digits dropped (stray marks read as letters). */
export function cleanOcrText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => /[\p{L}\p{N}]{2}/u.test(line))
    .join('\n')
    .slice(0, MAX_SLIDE_TEXT);
}

/** The words on one slide picture (a PNG file), one Tesseract run on one thread at low priority. */
export async function readSlideText(
  tools: OcrTools,
  image: string,
  options: { signal?: AbortSignal; nice?: number } = {},
): Promise<{ text: string; cpuSeconds: number }> {
  const result = await runTool([tools.tesseractPath, image, 'stdout', '-l', tools.ocrLanguages, '--psm', '3'], {
    ...options,
    env: { OMP_THREAD_LIMIT: '1' },
  });
  if (result.exitCode !== 0) {
    throw new Error(`tesseract failed (${result.exitCode}): ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
  }
  return { text: cleanOcrText(new TextDecoder().decode(result.stdout)), cpuSeconds: result.cpuSeconds };
}
