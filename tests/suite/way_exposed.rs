//! The `exposed` built-in: legal, never a worse result against the dealer than its tie-break
//! house way, and equal to that house way when it has no dealer to see.

use paigow::cards::deal::sample_hands;
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::game::wager::DealerSetting;
use paigow::strategy::exposed::outcome;
use paigow::strategy::resolve::resolve;
use paigow::strategy::way::HouseWay;

#[test]
fn exposed_beats_or_matches_its_house_way_against_the_dealer() {
    let game = GameRules::load("double-joker").unwrap();
    let ev = Evaluator::new(game.ranking);
    let exposed = resolve("exposed:foxwoods", &game).unwrap().strategy;
    let dealer_way = HouseWay::load("double-joker-dealer").unwrap();
    let house = HouseWay::load("foxwoods").unwrap();
    let (mut better, mut hands) = (0, 0);
    let mut stream = sample_hands(game.deck, 21);
    for _ in 0..20_000 {
        let (player, dealer) = (stream.next().unwrap(), stream.next().unwrap());
        if player.iter().any(|c| dealer.contains(c)) {
            continue;
        }
        let (ps, ds) = (ev.split_values(&player), ev.split_values(&dealer));
        let d = dealer_way.set(&dealer, &ds).split;
        let setting = DealerSetting {
            front: ds.front[d],
            back: ds.back[d],
        };
        let k = exposed.choose(&player, &ps, Some(setting));
        let h = house.set(&player, &ps).split;
        assert!(ps.is_legal(k));
        assert!(outcome(&ps, k, setting) >= outcome(&ps, h, setting));
        better += (outcome(&ps, k, setting) > outcome(&ps, h, setting)) as u32;
        assert_eq!(exposed.choose(&player, &ps, None), h);
        hands += 1;
    }
    assert!(
        hands > 5_000 && better > 0,
        "{hands} hands, {better} improved"
    );
}
