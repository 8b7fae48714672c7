/**
 * Screen with the camera as a round bubble: both drawn into one canvas, recorded as `canvas.captureStream(30)` with
 * the microphone. Kept in one module so its cost can be measured against two separate recorders.
 */

/** Where the bubble sits, as fractions of the picture (its centre), and its diameter as a fraction of the height. */
export type BubblePlace = { x: number; y: number; size: number };

export const DEFAULT_BUBBLE: BubblePlace = { x: 0.86, y: 0.78, size: 0.3 };
const FPS = 30;
const MAX_WIDTH = 1920;

/** Keeps the bubble wholly inside the picture. */
export function clampBubble(place: BubblePlace, width: number, height: number): BubblePlace {
  const radiusX = (place.size * height) / 2 / width;
  const radiusY = place.size / 2;
  const within = (value: number, radius: number) => Math.min(1 - radius, Math.max(radius, value));
  return { ...place, x: within(place.x, radiusX), y: within(place.y, radiusY) };
}

/** The bubble moved by one arrow key (5% of the picture), kept inside it. */
export function nudgeBubble(place: BubblePlace, key: string, width: number, height: number): BubblePlace | null {
  const step = 0.05;
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const move = moves[key];
  if (!move) return null;
  return clampBubble({ ...place, x: place.x + move[0], y: place.y + move[1] }, width, height);
}

const playing = async (stream: MediaStream) => {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  await video.play();
  return video;
};

/**
 * A ticker that keeps running in a hidden tab (the teacher is showing another window): timers in a worker are not
 * slowed to once a second as the page's own are.
 */
function tick(onTick: () => void): () => void {
  try {
    const source = `setInterval(() => postMessage(0), ${Math.round(1000 / FPS)});`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(url);
    worker.onmessage = onTick;
    return () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    };
  } catch {
    const timer = setInterval(onTick, 1000 / FPS);
    return () => clearInterval(timer);
  }
}

export type Composition = {
  canvas: HTMLCanvasElement;
  /** The picture (canvas) and the microphone: what the MediaRecorder records. */
  stream: MediaStream;
  stop: () => void;
};

/** Draws the screen and the bubble 30 times a second; `place()` is read on every frame so a drag shows at once. */
export async function composeScreenWithBubble(
  screen: MediaStream,
  camera: MediaStream,
  microphone: MediaStream,
  place: () => BubblePlace,
): Promise<Composition> {
  const [screenVideo, cameraVideo] = await Promise.all([playing(screen), playing(camera)]);
  const canvas = document.createElement('canvas');
  const settings = screen.getVideoTracks()[0]?.getSettings() ?? {};
  const scale = Math.min(1, MAX_WIDTH / (settings.width ?? 1280));
  // Even sizes: the encoders refuse odd ones.
  canvas.width = Math.round(((settings.width ?? 1280) * scale) / 2) * 2;
  canvas.height = Math.round(((settings.height ?? 720) * scale) / 2) * 2;
  const context = canvas.getContext('2d', { alpha: false });
  if (!context) throw new Error('no 2d canvas');
  const draw = () => {
    const { width, height } = canvas;
    context.fillStyle = '#000';
    context.fillRect(0, 0, width, height);
    // The shared screen, letterboxed when it changes shape (a window resized while shared).
    const sw = screenVideo.videoWidth || width;
    const sh = screenVideo.videoHeight || height;
    const fit = Math.min(width / sw, height / sh);
    context.drawImage(screenVideo, (width - sw * fit) / 2, (height - sh * fit) / 2, sw * fit, sh * fit);
    const bubble = clampBubble(place(), width, height);
    const diameter = bubble.size * height;
    const cx = bubble.x * width;
    const cy = bubble.y * height;
    // The camera cropped to a square from its middle, then clipped round.
    const cw = cameraVideo.videoWidth || 1;
    const ch = cameraVideo.videoHeight || 1;
    const side = Math.min(cw, ch);
    context.save();
    context.beginPath();
    context.arc(cx, cy, diameter / 2, 0, Math.PI * 2);
    context.clip();
    context.drawImage(
      cameraVideo,
      (cw - side) / 2,
      (ch - side) / 2,
      side,
      side,
      cx - diameter / 2,
      cy - diameter / 2,
      diameter,
      diameter,
    );
    context.restore();
    context.lineWidth = Math.max(2, diameter / 60);
    context.strokeStyle = '#fff';
    context.beginPath();
    context.arc(cx, cy, diameter / 2, 0, Math.PI * 2);
    context.stroke();
  };
  draw();
  const stopTicking = tick(draw);
  const picture = canvas.captureStream(FPS);
  const stream = new MediaStream([...picture.getVideoTracks(), ...microphone.getAudioTracks()]);
  return {
    canvas,
    stream,
    stop() {
      stopTicking();
      for (const track of picture.getTracks()) track.stop();
      screenVideo.srcObject = null;
      cameraVideo.srcObject = null;
    },
  };
}
