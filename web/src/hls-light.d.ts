// hls.js ships the light build without its own typings; it has the same API as the full build.
declare module 'hls.js/light' {
  import Hls from 'hls.js';
  export default Hls;
}
