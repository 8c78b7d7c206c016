pub mod desk;
