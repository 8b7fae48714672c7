import { formatNumber } from '@lib/format';
import { direction, t } from '@lib/i18n';
import { useDismiss } from '@lib/use-dismiss';
import { SettingsIcon } from '@ui/icons';
import { type Dispatch, type ReactNode, type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import type { PlayerCommands } from '../hooks/usePlayerCommands';
import type { PlayerAction, PlayerState } from '../state/player-state';

const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

type Caption = { language: string; label: string };

/** The speed, quality and captions menus: in the bar on a wide player, in the settings menu on a narrow one. */
export function PlayerMenus({
  state,
  commands,
  captions,
  menu,
}: {
  state: PlayerState;
  commands: PlayerCommands;
  captions: Caption[];
  /** The settings menu (a narrow player): the selects go into its panel. */
  menu?: SettingsMenu;
}) {
  const speed = (
    <select
      aria-label={t('player.speedLabel')}
      className="player-select"
      value={state.speed}
      onChange={(event) => commands.chooseSpeed(Number(event.target.value))}
    >
      {SPEEDS.map((value) => (
        <option key={value} value={value}>
          {formatNumber(value)}×
        </option>
      ))}
    </select>
  );
  const quality = state.qualities.length > 0 && (
    <select
      aria-label={t('player.quality')}
      className="player-select"
      value={state.quality}
      onChange={(event) => commands.chooseQuality(Number(event.target.value))}
    >
      <option value={-1}>{t('player.qualityAuto')}</option>
      {state.qualities.map((q) => (
        <option key={q.index} value={q.index} translate="no">
          {q.label}
        </option>
      ))}
    </select>
  );
  const language = captions.length > 1 && (
    <select
      aria-label={t('player.captionsLanguage')}
      className="player-select"
      value={state.captionLanguage ?? ''}
      onChange={(event) => commands.chooseCaptions(event.target.value || null)}
    >
      <option value="">{t('player.captionsOff')}</option>
      {captions.map((caption) => (
        // The teacher's label, in its own language (user content).
        <option key={caption.language} value={caption.language} lang={caption.language} translate="no">
          {caption.label}
        </option>
      ))}
    </select>
  );
  if (!menu)
    return (
      <>
        {speed}
        {quality}
        {language}
      </>
    );
  if (!state.menuOpen) return null;
  return (
    <SettingsPanel menu={menu}>
      <span>{t('player.speed')}</span>
      {speed}
      {quality && (
        <>
          <span>{t('player.quality')}</span>
          {quality}
        </>
      )}
      {language && (
        <>
          <span>{t('player.captions')}</span>
          {language}
        </>
      )}
    </SettingsPanel>
  );
}

export type SettingsMenu = ReturnType<typeof useSettingsMenu>;

/** Space kept between the menu and the player's top edge. */
const MENU_MARGIN_PX = 4;

/**
 * Where the open menu's bottom sits, in px above the bar's bottom: above the whole bar where it fits; else above the
 * seek bar; else over the bar as a sheet from the player's bottom, as tall as the player at most (it scrolls then).
 * A phone's player (about 190 px tall) has no room above its bar for three rows, and its overflow cut them off.
 */
export function menuPlacement(
  panelHeight: number,
  playerTop: number,
  bar: { top: number; seekTop: number; bottom: number },
): { bottom: number; maxHeight?: number } {
  for (const edge of [bar.top, bar.seekTop]) {
    if (edge - panelHeight >= playerTop + MENU_MARGIN_PX) return { bottom: bar.bottom - edge };
  }
  return { bottom: 0, maxHeight: bar.bottom - playerTop };
}

/**
 * The narrow player's settings menu (YouTube's gear): it opens above the bar under its button where it fits (else
 * lower, see menuPlacement), and closes on Escape, on a click outside it, and when the player grows wide.
 */
export function useSettingsMenu(
  open: boolean,
  dispatch: Dispatch<PlayerAction>,
  barRef: RefObject<HTMLDivElement | null>,
) {
  const id = useId();
  const buttonRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  /** The menu's right edge, from the bar's right edge: under it sits the Settings button. */
  const [right, setRight] = useState(0);
  const [place, setPlace] = useState<{ bottom: number; maxHeight?: number } | null>(null);
  useDismiss(open, [buttonRef, panelRef], () => dispatch({ type: 'menu', open: false }));
  // Measured before paint each time the open menu renders (its rows change when the stream's qualities arrive).
  useLayoutEffect(() => {
    const panel = panelRef.current;
    const bar = barRef.current;
    const player = bar?.parentElement;
    if (!open || !panel || !bar || !player) return;
    const seek = bar.querySelector('.player-seek') ?? bar;
    const barBox = bar.getBoundingClientRect();
    const next = menuPlacement(panel.scrollHeight, player.getBoundingClientRect().top, {
      top: barBox.top,
      seekTop: seek.getBoundingClientRect().top,
      bottom: barBox.bottom,
    });
    setPlace((last) => (last?.bottom === next.bottom && last.maxHeight === next.maxHeight ? last : next));
  });
  const toggle = () => {
    const bar = barRef.current ?? panelRef.current?.parentElement;
    const button = buttonRef.current;
    if (bar && button) setRight(Math.max(0, bar.getBoundingClientRect().right - button.getBoundingClientRect().right));
    dispatch({ type: 'menu', open: !open });
  };
  return { id, open, buttonRef, panelRef, right, place, toggle };
}

function SettingsPanel({ menu, children }: { menu: SettingsMenu; children: ReactNode }) {
  return (
    // Above the whole bar (seek bar included) where it fits, its right edge under the Settings button: one label
    // column, one column of same-width selects.
    <div
      ref={menu.panelRef}
      id={menu.id}
      // Placed by the left-to-right bar (style.right), its rows read the way the language on screen does.
      dir={direction}
      className="absolute bottom-full z-10 grid max-w-[calc(100%-0.75rem)] [&_.player-select]:w-full [&_.player-select]:min-w-24 grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 overflow-y-auto rounded-xl bg-black/90 p-2.5 text-xs shadow-lg"
      style={{ right: menu.right, bottom: menu.place?.bottom, maxHeight: menu.place?.maxHeight }}
    >
      {children}
    </div>
  );
}

export function SettingsButton({ menu }: { menu: SettingsMenu }) {
  return (
    <div ref={menu.buttonRef} className="relative">
      <button
        type="button"
        className="player-btn"
        aria-label={t('player.settings')}
        aria-expanded={menu.open}
        aria-controls={menu.id}
        onClick={menu.toggle}
      >
        <SettingsIcon size={20} />
      </button>
    </div>
  );
}
