import { namesLookAlike, nameSkeleton } from '../src/lib/look-alike-names';

describe('look-alike operator names', () => {
  it.each([
    ['Polar Horizons Expeditions (demo)', 'Polar Horizons Expeditions (demo)'],
    ['Polar Horizons Expeditions (demo)', 'POLAR-HORIZONS expeditions demo'],
    ['Polar Horizons Expeditions (demo)', 'Роlаr Hоrizоns Ехреditiоns (dеmо)'],
    ['Polar Horizons Expeditions (demo)', 'Polar Horizons Expeditions'],
    ['Polar Horizons Expeditions', 'Pōlar Hørizons Expéditions'],
    ['Polar Horizons Expeditions', 'Po1ar Horizons Expedition5'],
    ['Fern Glacier Voyages', 'Fem Glacier Voyages'],
    ['Polar Horizons Expeditions', 'Ｐｏｌａｒ Ｈｏｒｉｚｏｎｓ Ｅｘｐｅｄｉｔｉｏｎｓ'],
    ['Arctic Voyages', 'Arctic Voyages Ltd'],
  ])('%s and %s read alike', (a, b) => {
    expect(namesLookAlike(a, b)).toBe(true);
  });

  it.each([
    ['Polar Horizons Expeditions', 'Polar Horizons'],
    ['Polar Horizons Expeditions', 'Arctic Horizons Expeditions'],
    ['Ice Tours', 'Ice Tours of Svalbard'],
    ['Галапагос Тур', 'Svalbard Tours'],
  ])('%s and %s do not', (a, b) => {
    expect(namesLookAlike(a, b)).toBe(false);
  });

  it('keeps letters of scripts without look-alikes', () => {
    expect(nameSkeleton('北極ツアー')).toBe('北極ツアー');
  });
});
